"""The viewer's own words in English, French, Portuguese and Thai.

``tr(lang, key, **values)`` formats one entry; every entry has all four languages (a test checks
that each translation names the same placeholders).
"""

from __future__ import annotations

from typing import Final, Literal

Lang = Literal["en", "fr", "pt", "th"]
LANGS: Final[dict[Lang, str]] = {"en": "English", "fr": "Français", "pt": "Português", "th": "ไทย"}
_INDEX: Final[dict[Lang, int]] = {"en": 0, "fr": 1, "pt": 2, "th": 3}

# key -> (English, French, Portuguese, Thai)
TEXT: Final[dict[str, tuple[str, str, str, str]]] = {
    # --- frame -------------------------------------------------------------------------
    "app.title": ("Cuccù viewer", "Visionneuse Cuccù", "Visualizador Cuccù", "ตัวดูเกม Cuccù"),
    "nav.matches": ("Matches", "Parties", "Partidas", "แมตช์"),
    "nav.replay": ("Replay", "Rejouer", "Replay", "ดูย้อนหลัง"),
    "nav.audit": ("Audit", "Audit", "Auditoria", "ตรวจสอบ"),
    "nav.charts": ("Charts", "Graphiques", "Gráficos", "แผนภูมิ"),
    "nav.play": ("Play", "Jouer", "Jogar", "เล่น"),
    "nav.rules": ("Rules", "Règles", "Regras", "กติกา"),
    "side.language": ("Language", "Langue", "Idioma", "ภาษา"),
    "side.api": ("API address", "Adresse de l'API", "Endereço da API", "ที่อยู่ API"),
    # --- loading a match ---------------------------------------------------------------------
    "load.none": (
        "No match is open. Pick a finished match on the Matches page, upload an NDJSON "
        "export, or load a sample match played by bots.",
        "Aucune partie ouverte. Choisissez une partie terminée dans Parties, déposez un "
        "export NDJSON, ou chargez une partie d'exemple jouée par des robots.",
        "Nenhuma partida aberta. Escolha uma partida terminada em Partidas, envie uma "
        "exportação NDJSON ou carregue uma partida de exemplo jogada por robôs.",
        "ยังไม่ได้เปิดแมตช์ใด เลือกแมตช์ที่จบแล้วในหน้าแมตช์ อัปโหลดไฟล์ส่งออก NDJSON หรือโหลดแมตช์ตัวอย่างที่บอตเล่น",
    ),
    "load.change": (
        "Open another match",
        "Ouvrir une autre partie",
        "Abrir outra partida",
        "เปิดแมตช์อื่น",
    ),
    "load.upload": (
        "NDJSON export of a match",
        "Export NDJSON d'une partie",
        "Exportação NDJSON de uma partida",
        "ไฟล์ส่งออก NDJSON ของแมตช์",
    ),
    "load.match_id": (
        "Match id on the API",
        "Identifiant de partie sur l'API",
        "Id da partida na API",
        "รหัสแมตช์บน API",
    ),
    "load.from_api": (
        "Load from the API",
        "Charger depuis l'API",
        "Carregar da API",
        "โหลดจาก API",
    ),
    "load.sample": (
        "Load a sample bot match",
        "Charger une partie d'exemple",
        "Carregar uma partida de exemplo",
        "โหลดแมตช์ตัวอย่าง",
    ),
    "load.loaded": (
        "Open: {label} · {events} events · {rounds} rounds",
        "Ouverte : {label} · {events} événements · {rounds} manches",
        "Aberta: {label} · {events} eventos · {rounds} rodadas",
        "เปิดอยู่: {label} · {events} เหตุการณ์ · {rounds} รอบ",
    ),
    "load.bad_file": (
        "This file cannot be read: {error}",
        "Ce fichier est illisible : {error}",
        "Este arquivo não pode ser lido: {error}",
        "อ่านไฟล์นี้ไม่ได้: {error}",
    ),
    "load.partial": (
        "This log does not end with a winner: it is shown as a spectator sees it, without "
        "hidden cards. Only finished matches open with every card shown.",
        "Ce journal ne se termine pas par un gagnant : il est montré comme le voit un "
        "spectateur, sans les cartes cachées. Seules les parties terminées montrent toutes "
        "les cartes.",
        "Este registro não termina com um vencedor: ele é mostrado como um espectador o vê, "
        "sem as cartas ocultas. Só partidas terminadas mostram todas as cartas.",
        "บันทึกนี้ยังไม่มีผู้ชนะ จึงแสดงแบบที่ผู้ชมเห็น โดยไม่แสดงไพ่ที่ซ่อนอยู่ เฉพาะแมตช์ที่จบแล้วเท่านั้นที่แสดงไพ่ทุกใบ",
    ),
    "load.seed": ("Sample seed", "Graine de l'exemple", "Semente do exemplo", "seed ของตัวอย่าง"),
    "sample.label": (
        "sample match (seed {seed})",
        "partie d'exemple (graine {seed})",
        "partida de exemplo (semente {seed})",
        "แมตช์ตัวอย่าง (seed {seed})",
    ),
    "api.down": (
        "The API at {url} does not answer ({error}). Replay, Audit, Charts and Rules still "
        "work with an uploaded export.",
        "L'API à {url} ne répond pas ({error}). Rejouer, Audit, Graphiques et Règles "
        "fonctionnent toujours avec un export déposé.",
        "A API em {url} não responde ({error}). Replay, Auditoria, Gráficos e Regras "
        "continuam funcionando com uma exportação enviada.",
        "API ที่ {url} ไม่ตอบสนอง ({error}) หน้าดูย้อนหลัง ตรวจสอบ แผนภูมิ และกติกา ยังใช้กับไฟล์ส่งออกที่อัปโหลดได้",
    ),
    "api.error": (
        "The API refused: {error}",
        "L'API a refusé : {error}",
        "A API recusou: {error}",
        "API ปฏิเสธ: {error}",
    ),
    # --- matches -----------------------------------------------------------------------------
    "matches.status": ("Status", "Statut", "Situação", "สถานะ"),
    "matches.all": ("All", "Toutes", "Todas", "ทั้งหมด"),
    "matches.search": (
        "Seat name contains",
        "Nom de joueur contenant",
        "Nome de jogador contém",
        "ชื่อผู้เล่นมีคำว่า",
    ),
    "matches.min_rounds": (
        "At least this many rounds",
        "Au moins ce nombre de manches",
        "Pelo menos este número de rodadas",
        "จำนวนรอบอย่างน้อย",
    ),
    "matches.none": (
        "No match fits these filters.",
        "Aucune partie ne correspond à ces filtres.",
        "Nenhuma partida corresponde a estes filtros.",
        "ไม่มีแมตช์ที่ตรงกับตัวกรอง",
    ),
    "matches.pick": (
        "Finished match to open",
        "Partie terminée à ouvrir",
        "Partida terminada para abrir",
        "แมตช์ที่จบแล้วที่จะเปิด",
    ),
    "matches.open": ("Open in Replay", "Ouvrir dans Rejouer", "Abrir no Replay", "เปิดในหน้าดูย้อนหลัง"),
    "matches.ongoing": (
        "Matches still being played show public information only; they open in Replay once "
        "they are finished.",
        "Les parties en cours ne montrent que l'information publique ; elles s'ouvrent dans "
        "Rejouer une fois terminées.",
        "Partidas em andamento mostram só informação pública; elas abrem no Replay quando "
        "terminam.",
        "แมตช์ที่ยังเล่นอยู่แสดงเฉพาะข้อมูลสาธารณะ และจะเปิดในหน้าดูย้อนหลังได้เมื่อจบแล้ว",
    ),
    "matches.count": (
        "{shown} of {total} matches",
        "{shown} parties sur {total}",
        "{shown} de {total} partidas",
        "{shown} จาก {total} แมตช์",
    ),
    "col.match": ("Match", "Partie", "Partida", "แมตช์"),
    "col.status": ("Status", "Statut", "Situação", "สถานะ"),
    "col.seats": ("Seats", "Joueurs", "Jogadores", "ผู้เล่น"),
    "col.winner": ("Winner", "Gagnant", "Vencedor", "ผู้ชนะ"),
    "col.rounds": ("Rounds", "Manches", "Rodadas", "รอบ"),
    "col.created": ("Created", "Créée", "Criada", "สร้างเมื่อ"),
    "col.lives": ("Lives", "Vies", "Vidas", "ชีวิต"),
    "col.seat": ("Seat", "Place", "Lugar", "ที่นั่ง"),
    "col.name": ("Name", "Nom", "Nome", "ชื่อ"),
    "col.card": ("Card", "Carte", "Carta", "ไพ่"),
    "col.event": ("Event", "Événement", "Evento", "เหตุการณ์"),
    "col.what": ("What happened", "Ce qui s'est passé", "O que aconteceu", "สิ่งที่เกิดขึ้น"),
    "status.over": ("finished", "terminée", "terminada", "จบแล้ว"),
    "status.in_round": ("in progress", "en cours", "em andamento", "กำลังเล่น"),
    "status.between_rounds": ("between rounds", "entre deux manches", "entre rodadas", "ระหว่างรอบ"),
    "status.new": ("new", "nouvelle", "nova", "ใหม่"),
    # --- replay ------------------------------------------------------------------------------
    "replay.first": ("⏮ Start", "⏮ Début", "⏮ Início", "⏮ เริ่ม"),
    "replay.prev": ("◀ Back", "◀ Retour", "◀ Voltar", "◀ ย้อน"),
    "replay.next": ("Next ▶", "Suivant ▶", "Próximo ▶", "ถัดไป ▶"),
    "replay.last": ("End ⏭", "Fin ⏭", "Fim ⏭", "จบ ⏭"),
    "replay.step": ("Event", "Événement", "Evento", "เหตุการณ์"),
    "replay.round": ("Jump to round", "Aller à la manche", "Ir para a rodada", "ไปที่รอบ"),
    "replay.autoplay": ("Autoplay", "Lecture automatique", "Reprodução automática", "เล่นอัตโนมัติ"),
    "replay.speed": (
        "Seconds per event",
        "Secondes par événement",
        "Segundos por evento",
        "วินาทีต่อเหตุการณ์",
    ),
    "replay.before": (
        "Before the first event.",
        "Avant le premier événement.",
        "Antes do primeiro evento.",
        "ก่อนเหตุการณ์แรก",
    ),
    "replay.now": (
        "Event {version} of {total} · round {round}",
        "Événement {version} sur {total} · manche {round}",
        "Evento {version} de {total} · rodada {round}",
        "เหตุการณ์ {version} จาก {total} · รอบ {round}",
    ),
    "replay.log": (
        "Running log of this round",
        "Journal de cette manche",
        "Registro desta rodada",
        "บันทึกของรอบนี้",
    ),
    "replay.revealed": (
        "Revealed this round",
        "Révélées dans cette manche",
        "Reveladas nesta rodada",
        "เปิดเผยในรอบนี้",
    ),
    "replay.nothing": ("nothing yet", "rien pour l'instant", "nada ainda", "ยังไม่มี"),
    "replay.pack": (
        "Pack: {left} cards · discard: {discard}",
        "Paquet : {left} cartes · défausse : {discard}",
        "Baralho: {left} cartas · descarte: {discard}",
        "กองไพ่: {left} ใบ · ทิ้ง: {discard}",
    ),
    "replay.stuck": (
        "The rules cannot follow this log past event {version}; the Audit page says why.",
        "Les règles ne peuvent pas suivre ce journal après l'événement {version} ; la page "
        "Audit explique pourquoi.",
        "As regras não conseguem seguir este registro depois do evento {version}; a página "
        "Auditoria explica por quê.",
        "กติกาไม่สามารถติดตามบันทึกนี้ต่อหลังเหตุการณ์ {version} ได้ ดูเหตุผลในหน้าตรวจสอบ",
    ),
    "seat.dealer": ("dealer", "donneur", "dealer", "เจ้ามือ"),
    "seat.deciding": ("to decide", "doit décider", "decide agora", "ถึงตาตัดสินใจ"),
    "seat.out": ("out", "éliminé", "fora", "ออกแล้ว"),
    "seat.dead": ("dead card", "carte morte", "carta morta", "ไพ่ตาย"),
    "seat.skipped": ("skipped (horse)", "sauté (cheval)", "pulado (cavalo)", "ถูกข้าม (ม้า)"),
    "seat.undealt": ("not dealt yet", "pas encore servi", "ainda sem carta", "ยังไม่ได้รับไพ่"),
    "seat.hidden": ("hidden", "cachée", "oculta", "ซ่อนอยู่"),
    "seat.winner": ("winner", "gagnant", "vencedor", "ผู้ชนะ"),
    # --- audit -------------------------------------------------------------------------------
    "audit.ok": (
        "Every check passes: this log is a complete match played by the rules, with fair "
        "shuffles and nothing altered.",
        "Tous les contrôles passent : ce journal est une partie complète jouée selon les "
        "règles, avec des mélanges loyaux et rien d'altéré.",
        "Todas as verificações passam: este registro é uma partida completa jogada pelas "
        "regras, com embaralhamentos justos e nada alterado.",
        "ผ่านทุกการตรวจสอบ: บันทึกนี้เป็นแมตช์ที่สมบูรณ์ เล่นตามกติกา สับไพ่อย่างยุติธรรม และไม่มีการแก้ไข",
    ),
    "sig.title": ("Signature", "Signature", "Assinatura", "ลายเซ็น"),
    "sig.ok": (
        "signed by the service at {url}: this is the log it recorded.",
        "signé par le service à {url} : c'est le journal qu'il a enregistré.",
        "assinado pelo serviço em {url}: este é o registro que ele gravou.",
        "ลงนามโดยบริการที่ {url}: นี่คือบันทึกที่บริการบันทึกไว้",
    ),
    "sig.unsigned": (
        "not signed: nothing shows that a service recorded this log as it is.",
        "non signé : rien ne montre qu'un service a enregistré ce journal tel quel.",
        "não assinado: nada mostra que um serviço gravou este registro como está.",
        "ไม่ได้ลงนาม: ไม่มีสิ่งใดแสดงว่าบริการบันทึกบันทึกนี้ไว้ตามที่เห็น",
    ),
    "sig.failed": (
        "not a valid signature of the service at {url} over this log.",
        "pas une signature valide du service à {url} sur ce journal.",
        "não é uma assinatura válida do serviço em {url} sobre este registro.",
        "ไม่ใช่ลายเซ็นที่ถูกต้องของบริการที่ {url} สำหรับบันทึกนี้",
    ),
    "audit.failed": (
        "{n} of {total} checks fail.",
        "{n} contrôles sur {total} échouent.",
        "{n} de {total} verificações falham.",
        "ไม่ผ่าน {n} จาก {total} การตรวจสอบ",
    ),
    "audit.pass": (
        "pass · {checked} checked",
        "réussi · {checked} vérifiés",
        "passou · {checked} verificados",
        "ผ่าน · ตรวจ {checked} รายการ",
    ),
    "audit.fail": (
        "fails at event {version}",
        "échoue à l'événement {version}",
        "falha no evento {version}",
        "ไม่ผ่านที่เหตุการณ์ {version}",
    ),
    "audit.show": (
        "Show event {version} in Replay",
        "Voir l'événement {version} dans Rejouer",
        "Ver o evento {version} no Replay",
        "ดูเหตุการณ์ {version} ในหน้าดูย้อนหลัง",
    ),
    "audit.event": (
        "The event as recorded",
        "L'événement tel qu'enregistré",
        "O evento como registrado",
        "เหตุการณ์ตามที่บันทึกไว้",
    ),
    "audit.hidden": (
        "Details are shown for finished matches only: they may name hidden cards.",
        "Les détails ne sont montrés que pour les parties terminées : ils peuvent nommer des "
        "cartes cachées.",
        "Os detalhes só aparecem para partidas terminadas: podem citar cartas ocultas.",
        "แสดงรายละเอียดเฉพาะแมตช์ที่จบแล้ว เพราะอาจเอ่ยถึงไพ่ที่ซ่อนอยู่",
    ),
    "check.hash_chain": ("Hash chain", "Chaîne de hachage", "Cadeia de hashes", "สายโซ่แฮช"),
    "check.commitments": (
        "Shuffle commitments",
        "Engagements de mélange",
        "Compromissos de embaralhamento",
        "คำมั่นการสับไพ่",
    ),
    "check.replay": (
        "Re-execution of the decisions",
        "Réexécution des décisions",
        "Reexecução das decisões",
        "เล่นซ้ำการตัดสินใจ",
    ),
    "check.conservation": (
        "Card conservation",
        "Conservation des cartes",
        "Conservação das cartas",
        "การคงอยู่ของไพ่",
    ),
    "check.lives": (
        "Lives bookkeeping",
        "Comptabilité des vies",
        "Contabilidade das vidas",
        "บัญชีชีวิต",
    ),
    "check.complete": ("Complete match", "Partie complète", "Partida completa", "แมตช์สมบูรณ์"),
    "why.hash_chain": (
        "Each event is sealed with a hash of itself and of the event before it.",
        "Chaque événement est scellé par un hachage de lui-même et de l'événement précédent.",
        "Cada evento é selado com um hash dele mesmo e do evento anterior.",
        "ทุกเหตุการณ์ถูกผนึกด้วยแฮชของตัวเองและของเหตุการณ์ก่อนหน้า",
    ),
    "why.commitments": (
        "Each round's shuffle was sealed before the first card and is opened at its end.",
        "Le mélange de chaque manche est scellé avant la première carte et ouvert à la fin.",
        "O embaralhamento de cada rodada é selado antes da primeira carta e aberto no fim.",
        "การสับไพ่ของแต่ละรอบถูกผนึกไว้ก่อนแจกใบแรกและเปิดเผยเมื่อจบรอบ",
    ),
    "why.replay": (
        "Playing the recorded decisions again through the rules gives exactly this log.",
        "Rejouer les décisions enregistrées selon les règles redonne exactement ce journal.",
        "Jogar de novo as decisões registradas pelas regras produz exatamente este registro.",
        "เมื่อเล่นการตัดสินใจที่บันทึกไว้ซ้ำตามกติกา จะได้บันทึกนี้ทุกประการ",
    ),
    "why.conservation": (
        "After every event each of the 40 cards is in exactly one place.",
        "Après chaque événement, chacune des 40 cartes est à un seul endroit.",
        "Depois de cada evento, cada uma das 40 cartas está em um único lugar.",
        "หลังทุกเหตุการณ์ ไพ่ทั้ง 40 ใบอยู่ในที่เดียวเท่านั้น",
    ),
    "why.lives": (
        "Every life lost, elimination, reset, dealer and the winner add up.",
        "Vies perdues, éliminations, remises à zéro, donneurs et gagnant concordent.",
        "Vidas perdidas, eliminações, reinícios, dealers e vencedor batem.",
        "ชีวิตที่เสีย การตกรอบ การรีเซ็ต เจ้ามือ และผู้ชนะ ตรงกันทั้งหมด",
    ),
    "why.complete": (
        "The log runs from the match's creation to its winner.",
        "Le journal va de la création de la partie jusqu'à son gagnant.",
        "O registro vai da criação da partida até o vencedor.",
        "บันทึกครอบคลุมตั้งแต่สร้างแมตช์จนถึงผู้ชนะ",
    ),
    # --- charts ------------------------------------------------------------------------------
    "charts.lives": (
        "Lives per seat after each round",
        "Vies par joueur après chaque manche",
        "Vidas por jogador após cada rodada",
        "ชีวิตของแต่ละที่นั่งหลังแต่ละรอบ",
    ),
    "charts.round": ("Round", "Manche", "Rodada", "รอบ"),
    "charts.losses": (
        "Lives lost, by reason",
        "Vies perdues, par cause",
        "Vidas perdidas, por motivo",
        "ชีวิตที่เสีย แยกตามสาเหตุ",
    ),
    "charts.actions": (
        "Exchanges and refusals",
        "Échanges et refus",
        "Trocas e recusas",
        "การแลกและการปฏิเสธ",
    ),
    "charts.tallies": ("Per-seat tallies", "Totaux par joueur", "Totais por jogador", "สรุปต่อที่นั่ง"),
    "charts.count": ("Count", "Nombre", "Quantidade", "จำนวน"),
    "charts.kind": ("Kind", "Type", "Tipo", "ประเภท"),
    "tally.requests": ("exchanges asked", "échanges demandés", "trocas pedidas", "ขอแลก"),
    "tally.swaps": ("cards swapped", "cartes échangées", "cartas trocadas", "ได้แลกไพ่"),
    "tally.refused": ("refusals met", "refus subis", "recusas sofridas", "ถูกปฏิเสธ"),
    "tally.keeps": ("keeps", "cartes gardées", "cartas mantidas", "เก็บไพ่"),
    "tally.dealt": ("rounds dealt", "manches données", "rodadas como dealer", "รอบที่เป็นเจ้ามือ"),
    "reason.hunter": ("hunter", "chasseur", "caçador", "นักล่า"),
    "reason.cat": ("cat", "chat", "gato", "แมว"),
    "reason.scoring": ("lowest card", "carte la plus basse", "carta mais baixa", "ไพ่ต่ำสุด"),
    "reason.inn_pledge": (
        "inn pledge",
        "promesse de l'auberge",
        "promessa da estalagem",
        "คำมั่นโรงเตี๊ยม",
    ),
    # --- play --------------------------------------------------------------------------------
    "play.intro": (
        "You play seat 0 against three AI opponents, through the API like any other client. "
        "You see your own card and what is public, nothing more.",
        "Vous jouez la place 0 contre trois adversaires IA, via l'API comme tout autre "
        "client. Vous voyez votre carte et ce qui est public, rien de plus.",
        "Você joga no lugar 0 contra três adversários de IA, pela API como qualquer outro "
        "cliente. Você vê sua carta e o que é público, nada mais.",
        "คุณเล่นที่นั่ง 0 กับคู่ต่อสู้ AI สามคนผ่าน API เหมือนไคลเอนต์อื่น ๆ คุณเห็นไพ่ของตัวเองและข้อมูลสาธารณะเท่านั้น",
    ),
    "play.name": ("Your name", "Votre nom", "Seu nome", "ชื่อของคุณ"),
    "play.level": ("Opponents", "Adversaires", "Adversários", "คู่ต่อสู้"),
    "play.lives": ("Lives each", "Vies chacun", "Vidas cada", "ชีวิตต่อคน"),
    "play.start": ("Start a match", "Commencer une partie", "Começar uma partida", "เริ่มแมตช์"),
    "play.your_card": ("Your card", "Votre carte", "Sua carta", "ไพ่ของคุณ"),
    "play.decide": ("Your decision", "Votre décision", "Sua decisão", "การตัดสินใจของคุณ"),
    "play.waiting": (
        "Waiting for {seat}…",
        "En attente de {seat}…",
        "Aguardando {seat}…",
        "กำลังรอ {seat}…",
    ),
    "play.over": (
        "The match is over: {winner} wins.",
        "La partie est finie : {winner} gagne.",
        "A partida acabou: {winner} vence.",
        "แมตช์จบแล้ว: {winner} ชนะ",
    ),
    "play.new": ("Leave this match", "Quitter cette partie", "Sair desta partida", "ออกจากแมตช์นี้"),
    "play.seen": ("What you have seen", "Ce que vous avez vu", "O que você viu", "สิ่งที่คุณเห็น"),
    "play.refresh": ("Refresh", "Actualiser", "Atualizar", "รีเฟรช"),
    "play.match": (
        "Match {match_id} · round {round} · version {version}",
        "Partie {match_id} · manche {round} · version {version}",
        "Partida {match_id} · rodada {round} · versão {version}",
        "แมตช์ {match_id} · รอบ {round} · เวอร์ชัน {version}",
    ),
    "level.random": ("random", "au hasard", "aleatório", "สุ่ม"),
    "level.basic": ("basic", "basique", "básico", "พื้นฐาน"),
    "level.expert": ("expert", "expert", "especialista", "ผู้เชี่ยวชาญ"),
    "choice.keep": ("Keep my card", "Garder ma carte", "Ficar com minha carta", "เก็บไพ่ไว้"),
    "choice.exchange": ("Ask to exchange", "Demander un échange", "Pedir uma troca", "ขอแลกไพ่"),
    "choice.dealer_exchange": (
        "Exchange with the pack",
        "Échanger avec le paquet",
        "Trocar com o baralho",
        "แลกกับกองไพ่",
    ),
    "choice.inn_keep": (
        "Keep my card (leave the inn)",
        "Garder ma carte (laisser l'auberge)",
        "Ficar com minha carta (deixar a estalagem)",
        "เก็บไพ่ไว้ (ปล่อยโรงเตี๊ยม)",
    ),
    "choice.inn_ask_pay": (
        "Ask the innkeeper to pay",
        "Demander à l'aubergiste de payer",
        "Pedir ao estalajadeiro que pague",
        "ขอให้เจ้าของโรงเตี๊ยมจ่าย",
    ),
    "choice.inn_accept": ("Accept to pay", "Accepter de payer", "Aceitar pagar", "ยอมจ่าย"),
    "choice.inn_refuse": (
        "Refuse: hand over the inn",
        "Refuser : céder l'auberge",
        "Recusar: entregar a estalagem",
        "ปฏิเสธ: ส่งโรงเตี๊ยมให้",
    ),
    "choice.next_round": ("Next round", "Manche suivante", "Próxima rodada", "รอบถัดไป"),
    # --- rules -------------------------------------------------------------------------------
    "rules.read_in": (
        "Read the rules in",
        "Lire les règles en",
        "Ler as regras em",
        "อ่านกติกาเป็นภาษา",
    ),
    # --- cards -------------------------------------------------------------------------------
    "card.hidden": ("a face-down card", "une carte face cachée", "uma carta virada", "ไพ่คว่ำหนึ่งใบ"),
    "rank.lion": ("lion", "lion", "leão", "สิงโต"),
    "rank.mask": ("mask", "masque", "máscara", "หน้ากาก"),
    "rank.bucket": ("bucket", "seau", "balde", "ถัง"),
    "rank.zero": ("zero", "zéro", "zero", "ศูนย์"),
    "rank.inn": ("inn", "auberge", "estalagem", "โรงเตี๊ยม"),
    "rank.cat": ("cat", "chat", "gato", "แมว"),
    "rank.horse": ("horse", "cheval", "cavalo", "ม้า"),
    "rank.hunter": ("hunter", "chasseur", "caçador", "นักล่า"),
    "rank.cuckoo": ("cuckoo", "coucou", "cuco", "นกคูคู"),
    "rank.fool": ("fool", "fou", "tolo", "ตัวตลก"),
    # --- captions of events ------------------------------------------------------------------
    "ev.match_created": (
        "The match begins: {n} seats with {lives} lives each; {dealer} deals first.",
        "La partie commence : {n} joueurs avec {lives} vies chacun ; {dealer} donne en premier.",
        "A partida começa: {n} jogadores com {lives} vidas cada; {dealer} dá as cartas primeiro.",
        "แมตช์เริ่มแล้ว: {n} ที่นั่ง คนละ {lives} ชีวิต {dealer} เป็นเจ้ามือคนแรก",
    ),
    "ev.seat_claimed": (
        "{seat} takes an open seat.",
        "{seat} prend une place libre.",
        "{seat} ocupa um lugar livre.",
        "{seat} เข้านั่งที่ว่าง",
    ),
    "ev.round_started": (
        "Round {round} starts; {dealer} deals. The shuffle is sealed before the first card.",
        "La manche {round} commence ; {dealer} donne. Le mélange est scellé avant la "
        "première carte.",
        "A rodada {round} começa; {dealer} dá as cartas. O embaralhamento é selado antes da "
        "primeira carta.",
        "รอบ {round} เริ่มแล้ว {dealer} เป็นเจ้ามือ การสับไพ่ถูกผนึกไว้ก่อนแจกใบแรก",
    ),
    "ev.card_dealt": (
        "{seat} is dealt {card} from the bottom of the pack.",
        "{seat} reçoit {card} du bas du paquet.",
        "{seat} recebe {card} do fundo do baralho.",
        "{seat} ได้รับ {card} จากก้นกองไพ่",
    ),
    "ev.kept": (
        "{seat} keeps their card.",
        "{seat} garde sa carte.",
        "{seat} fica com sua carta.",
        "{seat} เก็บไพ่ไว้",
    ),
    "ev.exchange_requested": (
        "{seat} asks {target} to exchange.",
        "{seat} demande un échange à {target}.",
        "{seat} pede uma troca a {target}.",
        "{seat} ขอแลกไพ่กับ {target}",
    ),
    "ev.card_revealed": (
        "{seat} reveals {card}.",
        "{seat} révèle {card}.",
        "{seat} revela {card}.",
        "{seat} เปิดเผย {card}",
    ),
    "ev.horse_skipped": (
        "{seat}'s horse is skipped.",
        "Le cheval de {seat} est sauté.",
        "O cavalo de {seat} é pulado.",
        "ม้าของ {seat} ถูกข้ามไป",
    ),
    "ev.retargeted": (
        "The request moves on: {seat} now asks {target}.",
        "La demande passe plus loin : {seat} demande maintenant à {target}.",
        "O pedido segue adiante: {seat} agora pede a {target}.",
        "คำขอเลื่อนต่อไป: {seat} ขอแลกกับ {target} แทน",
    ),
    "ev.cards_exchanged": (
        "{requester} and {target} swap cards: {requester} gets {rgets}, {target} gets {tgets}.",
        "{requester} et {target} échangent : {requester} reçoit {rgets}, {target} reçoit {tgets}.",
        "{requester} e {target} trocam: {requester} recebe {rgets}, {target} recebe {tgets}.",
        "{requester} กับ {target} แลกไพ่กัน: {requester} ได้ {rgets} {target} ได้ {tgets}",
    ),
    "ev.cards_swapped": (
        "{requester} and {target} swap cards.",
        "{requester} et {target} échangent leurs cartes.",
        "{requester} e {target} trocam de carta.",
        "{requester} กับ {target} แลกไพ่กัน",
    ),
    "ev.pack_bottom_hidden": (
        "{seat}, the dealer, swaps with the bottom of the pack.",
        "{seat}, le donneur, échange avec le bas du paquet.",
        "{seat}, o dealer, troca com o fundo do baralho.",
        "{seat} (เจ้ามือ) แลกกับไพ่ก้นกอง",
    ),
    "ev.pack_top_hidden": (
        "The dealer holds a horse, so {seat} swaps with the top of the pack.",
        "Le donneur tient un cheval : {seat} échange avec le haut du paquet.",
        "O dealer tem um cavalo: {seat} troca com o topo do baralho.",
        "เจ้ามือถือม้า {seat} จึงแลกกับไพ่บนสุดของกอง",
    ),
    "ev.exchange_refused": (
        "{seat} refuses the exchange with {requester}.",
        "{seat} refuse l'échange avec {requester}.",
        "{seat} recusa a troca com {requester}.",
        "{seat} ปฏิเสธการแลกกับ {requester}",
    ),
    "ev.inn_keep": (
        "{seat} leaves the inn alone and keeps their card.",
        "{seat} laisse l'auberge et garde sa carte.",
        "{seat} deixa a estalagem e fica com sua carta.",
        "{seat} ปล่อยโรงเตี๊ยมไว้และเก็บไพ่ของตน",
    ),
    "ev.inn_ask_pay": (
        "{seat} asks the innkeeper to pay if a zero loses.",
        "{seat} demande à l'aubergiste de payer si un zéro perd.",
        "{seat} pede ao estalajadeiro que pague se um zero perder.",
        "{seat} ขอให้เจ้าของโรงเตี๊ยมจ่ายแทนถ้าไพ่ศูนย์แพ้",
    ),
    "ev.inn_accept": (
        "{seat} accepts to pay.",
        "{seat} accepte de payer.",
        "{seat} aceita pagar.",
        "{seat} ยอมจ่าย",
    ),
    "ev.inn_refuse": (
        "{seat} refuses and must hand over the inn.",
        "{seat} refuse et doit céder l'auberge.",
        "{seat} recusa e precisa entregar a estalagem.",
        "{seat} ปฏิเสธและต้องส่งโรงเตี๊ยมให้",
    ),
    "ev.pledge_made": (
        "{innkeeper} pledges to lose a life for {requester} if {requester} loses with a zero.",
        "{innkeeper} promet de perdre une vie pour {requester} si {requester} perd avec un zéro.",
        "{innkeeper} promete perder uma vida por {requester} se {requester} perder com um zero.",
        "{innkeeper} สัญญาว่าจะเสียชีวิตแทน {requester} ถ้า {requester} แพ้ด้วยไพ่ศูนย์",
    ),
    "ev.exchange_reversed": (
        "The cat undoes the swap between {requester} and {target}.",
        "Le chat annule l'échange entre {requester} et {target}.",
        "O gato desfaz a troca entre {requester} e {target}.",
        "แมวย้อนการแลกระหว่าง {requester} กับ {target}",
    ),
    "ev.life_lost.hunter": (
        "{seat} loses a life to the hunter ({lives} left).",
        "{seat} perd une vie à cause du chasseur (reste {lives}).",
        "{seat} perde uma vida para o caçador (restam {lives}).",
        "{seat} เสียหนึ่งชีวิตเพราะนักล่า (เหลือ {lives})",
    ),
    "ev.life_lost.cat": (
        "{seat} loses a life to the cat ({lives} left).",
        "{seat} perd une vie à cause du chat (reste {lives}).",
        "{seat} perde uma vida para o gato (restam {lives}).",
        "{seat} เสียหนึ่งชีวิตเพราะแมว (เหลือ {lives})",
    ),
    "ev.life_lost.scoring": (
        "{seat} holds the lowest card and loses a life ({lives} left).",
        "{seat} a la carte la plus basse et perd une vie (reste {lives}).",
        "{seat} tem a carta mais baixa e perde uma vida (restam {lives}).",
        "{seat} ถือไพ่ต่ำสุดและเสียหนึ่งชีวิต (เหลือ {lives})",
    ),
    "ev.life_lost.inn_pledge": (
        "{seat} pays a life for {other}, as pledged at the inn ({lives} left).",
        "{seat} paie une vie pour {other}, comme promis à l'auberge (reste {lives}).",
        "{seat} paga uma vida por {other}, como prometido na estalagem (restam {lives}).",
        "{seat} เสียชีวิตแทน {other} ตามคำมั่นที่โรงเตี๊ยม (เหลือ {lives})",
    ),
    "ev.seat_eliminated": (
        "{seat} has no lives left.",
        "{seat} n'a plus de vies.",
        "{seat} não tem mais vidas.",
        "{seat} ไม่เหลือชีวิตแล้ว",
    ),
    "ev.pack_bottom": (
        "{seat}, the dealer, swaps with the bottom of the pack: gives {gave}, gets {got}.",
        "{seat}, le donneur, échange avec le bas du paquet : donne {gave}, reçoit {got}.",
        "{seat}, o dealer, troca com o fundo do baralho: dá {gave}, recebe {got}.",
        "{seat} (เจ้ามือ) แลกกับไพ่ก้นกอง: ให้ {gave} ได้ {got}",
    ),
    "ev.pack_top": (
        "The dealer holds a horse, so {seat} swaps with the top of the pack: "
        "gives {gave}, gets {got}.",
        "Le donneur tient un cheval : {seat} échange avec le haut du paquet : "
        "donne {gave}, reçoit {got}.",
        "O dealer tem um cavalo: {seat} troca com o topo do baralho: dá {gave}, recebe {got}.",
        "เจ้ามือถือม้า {seat} จึงแลกกับไพ่บนสุดของกอง: ให้ {gave} ได้ {got}",
    ),
    "ev.dealer_kept": (
        "{seat}, the dealer, keeps their card.",
        "{seat}, le donneur, garde sa carte.",
        "{seat}, o dealer, fica com sua carta.",
        "{seat} (เจ้ามือ) เก็บไพ่ไว้",
    ),
    "ev.round_scored": (
        "Cards shown: {cards}. Lowest: {losers}.",
        "Cartes montrées : {cards}. Les plus basses : {losers}.",
        "Cartas mostradas: {cards}. Mais baixas: {losers}.",
        "เปิดไพ่: {cards} ต่ำสุด: {losers}",
    ),
    "ev.nobody": ("nobody", "personne", "ninguém", "ไม่มีใคร"),
    "ev.lives_reset": (
        "Everyone reached zero: all seats return with {lives} lives.",
        "Tout le monde est à zéro : tous les joueurs reviennent avec {lives} vies.",
        "Todos chegaram a zero: todos os jogadores voltam com {lives} vidas.",
        "ทุกคนเหลือศูนย์: ทุกที่นั่งกลับมาพร้อม {lives} ชีวิต",
    ),
    "ev.round_ended": (
        "Round {round} ends and its shuffle is revealed; {dealer} deals next.",
        "La manche {round} se termine et son mélange est révélé ; {dealer} donne ensuite.",
        "A rodada {round} termina e seu embaralhamento é revelado; {dealer} dá as cartas a seguir.",
        "รอบ {round} จบและเปิดเผยการสับไพ่ {dealer} เป็นเจ้ามือคนถัดไป",
    ),
    "ev.round_ended_last": (
        "Round {round} ends and its shuffle is revealed.",
        "La manche {round} se termine et son mélange est révélé.",
        "A rodada {round} termina e seu embaralhamento é revelado.",
        "รอบ {round} จบและเปิดเผยการสับไพ่",
    ),
    "ev.match_won": (
        "{seat} wins the match!",
        "{seat} gagne la partie !",
        "{seat} vence a partida!",
        "{seat} ชนะแมตช์!",
    ),
}


def tr(lang: Lang, key: str, **values: object) -> str:
    """The text of ``key`` in ``lang``, with ``values`` filled in (English if ``key`` is new)."""
    entry = TEXT.get(key)
    if entry is None:
        return key
    text = entry[_INDEX.get(lang, 0)]
    return text.format(**values) if values else text
