"""Every page of the viewer, through Streamlit's AppTest (no browser)."""

from __future__ import annotations

import json
import os
import random
import re
import time
from typing import Any

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from api.turns import advance
from domain.audit import chain, parse_export, to_ndjson
from domain.entropy import Contribute
from domain.games import CUCCU
from domain.games.cuccu.views import view
from domain.seats import SeatSpec
from tests.viewer.support import APP, Api
from viewer.games.cucco21 import bot_game21
from viewer.games.cuccu_captions import card_numeral
from viewer.i18n import LANGS

DOWN = "http://127.0.0.1:9"  # nothing listens there


def open_page(page: str, *, lang: str = "en", api_url: str = DOWN) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    at.session_state["api_url"] = api_url
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def upload(at: AppTest, text: str, name: str = "match.ndjson") -> AppTest:
    at.file_uploader(key="upload").set_value((name, text.encode(), "application/x-ndjson"))
    at.run()
    assert not at.exception, at.exception
    return at


def table_data(at: AppTest) -> dict[str, Any]:
    """What the page sent the card table component (its drawing data, as JSON)."""
    found = [e for e in at.main if getattr(e, "type", None) == "bidi_component"]
    found += [e for block in at.main.children.values() for e in _elements(block)]
    for element in found:
        proto = element.proto
        if proto.component_name != "cuccu_card_table":
            continue
        data: dict[str, Any] = json.loads(proto.json)
        if data["mode"] in ("keeper", "news"):
            continue  # the same component keeps a seat and guards a live page's news: no table
        before: list[Any] = []
        for step in data["steps"]:  # a seat sent as 0 is the one of the step before
            seats = step["t"]["seats"]
            step["t"]["seats"] = before = [
                before[i] if seat == 0 else seat for i, seat in enumerate(seats)
            ]
        return data
    raise AssertionError("no card table on the page")


def _elements(node: Any) -> list[Any]:
    found = []
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", None) == "bidi_component":
            found.append(child)
        found += _elements(child)
    return found


def seat_cards(at: AppTest, step: int = -1) -> list[str]:
    """The card drawn on each seat of the table at ``step``: its corner, or "face-down"."""
    seats = table_data(at)["steps"][step]["t"]["seats"]
    return ["face-down" if s["card"][2] == "down" else s["card"][0] for s in seats]


def texts(at: AppTest) -> str:
    parts = [e.value for e in (*at.markdown, *at.caption, *at.info, *at.success, *at.error,
                                *at.warning)]  # fmt: skip
    return "\n".join(str(p) for p in parts)


# --- Replay ----------------------------------------------------------------------------------


def test_replay_without_a_match_offers_ways_to_open_one() -> None:
    at = open_page("replay")
    assert "No match is open" in at.info[0].value
    assert at.file_uploader(key="upload") is not None
    assert at.button(key="load_sample") is not None


def test_replay_steps_through_an_uploaded_export(export_text: str) -> None:
    """Every step is sent to the browser once; the component steps among them itself."""
    at = upload(open_page("replay"), export_text)
    total = export_text.count("\n")
    assert f"match.ndjson · {total} events" in texts(at)
    data = table_data(at)
    steps = data["steps"]
    assert data["mode"] == "replay" and data["start"] == 0 and len(steps) == total + 1
    assert steps[0]["c"] == "Before the first event."
    assert steps[3]["h"] == f"Event 3 of {total} · round 1"
    assert "is dealt" in steps[3]["c"]  # the plain-language caption of event 3
    assert any(s["hl"] for s in steps[3]["t"]["seats"])  # the seat it is about is highlighted
    assert any(["m", "dealer"] in s["b"] for s in steps[3]["t"]["seats"])
    third = next(i for i, s in enumerate(steps) if s["r"] == 3)
    assert "Round 3 starts" in steps[third]["c"] and steps[third]["s"] == third
    assert "wins the match" in steps[-1]["c"]
    assert any(["m", "winner"] in s["b"] for s in steps[-1]["t"]["seats"])  # a marker in words
    assert data["labels"]["next"] == "Next ›"


def test_replay_shows_every_card_of_a_finished_match(export_text: str) -> None:
    at = upload(open_page("replay"), export_text)
    shown = seat_cards(at)
    assert len(shown) == 4 and "face-down" not in shown  # nothing is face down once it is over


def test_a_sample_match_opens_without_any_file_or_api() -> None:
    at = open_page("replay")
    at.button(key="load_sample").click().run()
    assert "sample match (seed 1)" in texts(at)


def test_an_unfinished_log_is_shown_without_hidden_cards(export_text: str) -> None:
    lines = export_text.splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"round_ended"' in line) + 8
    at = upload(open_page("replay"), "\n".join(lines[:cut]) + "\n", "running.ndjson")
    assert "does not end with a winner" in texts(at)
    steps = table_data(at)["steps"]
    assert "a face-down card" in steps[-1]["c"] or any(
        "a face-down card" in s["c"] for s in steps
    )  # deals of the open round are not shown
    assert "face-down" in seat_cards(at)


def test_an_unreadable_file_is_reported() -> None:
    at = upload(open_page("replay"), "this is not json\n", "junk.ndjson")
    assert "cannot be read" in at.error[0].value and "line 1" in at.error[0].value


# --- Audit -----------------------------------------------------------------------------------


def test_audit_of_a_good_export_is_all_green(export_text: str) -> None:
    at = upload(open_page("audit"), export_text)
    assert "Every check passes" in at.success[0].value
    assert len(at.success) == 9 and not at.error  # the summary and 8 checks
    # a table of bots only: every deck the operator's own (docs/API.md "Fairness")
    assert "Whose entropy went into each deck" in texts(at)
    [decks] = at.dataframe
    assert set(decks.value["Shuffled from"]) == {
        "operator-chosen deck (no commitment: bots only, or an older match)"
    }


def test_the_audit_names_whose_entropy_went_into_each_deck() -> None:
    at = upload(open_page("audit"), to_ndjson(chain(_mixed_match())))
    assert "Every check passes" in at.success[0].value and not at.error
    assert any("**Shuffle entropy**" in s.value for s in at.success)
    [decks] = at.dataframe
    rows = decks.value.to_dict("records")
    assert rows and all(r["Entropy from"] == "Ann (seat 0)" for r in rows), rows
    assert rows[0]["Deck"] == "Round 1"


def test_an_uploaded_unsigned_export_is_said_to_be_unsigned(export_text: str) -> None:
    at = upload(open_page("audit"), export_text)
    assert [w.value for w in at.warning] == [
        "**Signature** — not signed: nothing shows that a service recorded this log as it is."
    ]


def test_the_signature_of_an_export_is_checked_with_the_keys_of_the_api(api: Api) -> None:
    match_id = api.bot_match(31)
    export = httpx.get(f"{api.base}/matches/{match_id}/export", timeout=30).text
    assert '"seal"' in export.splitlines()[-1]
    at = upload(open_page("audit", api_url=api.base), export)
    signed = [s.value for s in at.success if "**Signature**" in s.value]
    assert len(signed) == 1 and f"signed by the service at {api.base}" in signed[0]
    kid = json.loads(export.splitlines()[-1])["seal"]["key_id"]
    assert f"Signed with the service's key {kid}." in signed[0]
    assert not at.error
    # every word of it in the reader's language, the key's too
    at = upload(open_page("audit", lang="fr", api_url=api.base), export)
    [signed_fr] = [s.value for s in at.success if "**Signature**" in s.value]
    assert f"Signé avec la clé {kid} du service." in signed_fr and "signed by" not in signed_fr
    # the same file where the viewer cannot reach that service: its keys are not trusted,
    # whatever keys the file itself carries
    at = upload(open_page("audit"), export)
    [failed] = [e.value for e in at.error if "**Signature**" in e.value]
    assert "Its key is only in the export itself" in failed
    assert any("found only in the export itself: untrusted" in c.value for c in at.caption)
    # and a log rewritten with recomputed hashes fails the signature, not the audit
    rewritten = export.replace('"name":"Ann"', '"name":"Eve"')
    lines = rewritten.splitlines()
    forged = [line for line in lines if '"record"' in line]
    events = [r.event for r in parse_export("\n".join(forged)).records]
    text = to_ndjson(chain(events, match_id=match_id)) + lines[-1] + "\n"
    at = upload(open_page("audit", api_url=api.base), text, "forged.ndjson")
    assert "Every check passes" in at.success[0].value
    [failed] = [e.value for e in at.error if "**Signature**" in e.value]
    assert "The signature is over another match, or over another end of this one." in failed
    assert any("the signature is over match" in c.value for c in at.caption)


def test_audit_of_a_tampered_export_names_the_check_and_the_event(
    tampered_text: tuple[str, int],
) -> None:
    text, version = tampered_text
    at = upload(open_page("audit"), text, "tampered.ndjson")
    errors = [e.value for e in at.error]
    assert "3 of 8 checks fail" in errors[0]
    pattern = re.compile(r"\*\*(.+?)\*\* — fails at event (\d+)")
    failing = {m.group(1): int(m.group(2)) for e in errors if (m := pattern.search(e))}
    assert failing == {
        "Hash chain": version,
        "Re-execution of the decisions": version,
        "Card conservation": version,
    }
    assert {s.value.split("**")[1] for s in at.success} == {
        "Shuffle commitments", "Lives bookkeeping", "Shuffle entropy",
        "Clock deadlines and timeouts", "Complete match",
    }  # fmt: skip
    at.button(key="show_replay").click().run()  # "show event v in Replay"
    assert at.session_state["step"] == version
    data = table_data(at)
    assert data["start"] == version
    assert data["steps"][version]["h"].startswith(f"Event {version} of")


# --- Charts ----------------------------------------------------------------------------------


def test_charts_draw_lives_and_tallies(export_text: str) -> None:
    at = upload(open_page("charts"), export_text)
    assert [s.value for s in at.subheader] == [
        "Lives per seat after each round", "Lives lost, by reason", "Exchanges and refusals",
        "Per-seat tallies",
    ]  # fmt: skip
    charts = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    assert len(charts) == 3
    table = at.dataframe[0].value
    assert list(table["Name"]) == ["Bot 0", "Bot 1", "Bot 2", "Bot 3"]
    assert table["lowest card"].sum() > 0


def test_charts_are_readable_without_colour_vision() -> None:
    at = open_page("charts")
    at.button(key="load_sample").click().run()  # seed 1: a lives reset and eliminations
    charts = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    lives, *bars = (json.loads(c.proto.spec) for c in charts)
    layers = lives["layer"]
    line = next(layer for layer in layers if layer["mark"]["type"] == "line")
    assert {"color", "strokeDash"} <= set(line["encoding"])  # each seat: a colour and a dash
    points = next(layer for layer in layers if layer["mark"]["type"] == "point")
    assert "shape" in points["encoding"]
    colours = line["encoding"]["color"]["scale"]["range"]
    assert len(set(colours)) == 4 and "#0072B2" in colours  # Okabe-Ito, not two blues
    assert any(layer["mark"]["type"] == "rule" for layer in layers)  # the reset
    assert any(layer["mark"].get("shape") == "cross" for layer in layers)  # eliminations
    for chart in bars:  # side by side with their counts written, never stacked
        bar = chart["layer"][0]
        assert bar["encoding"]["y"]["stack"] is None and "xOffset" in bar["encoding"]
        assert chart["layer"][1]["mark"]["type"] == "text"


def test_the_box_keeps_its_grey_line_with_squares_on_a_full_cucco21_table() -> None:
    at = upload(open_page("charts"), to_ndjson(chain(bot_game21(6, seats=12))), "c21.ndjson")
    charts = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    layers = json.loads(charts[0].proto.spec)["layer"]
    line = next(layer for layer in layers if layer["mark"]["type"] == "line")["encoding"]
    points = next(layer for layer in layers if "shape" in layer["encoding"])["encoding"]

    def look(channel: dict[str, dict[str, list[object]]]) -> dict[object, object]:
        return dict(zip(channel["scale"]["domain"], channel["scale"]["range"], strict=True))

    colour, dash, shape = look(line["color"]), look(line["strokeDash"]), look(points["shape"])
    assert len(colour) == 13  # twelve seats and the box
    assert "the box is the grey line with squares" in texts(at)
    assert (colour["the box"], dash["the box"], shape["the box"]) == ("#555555", [1, 0], "square")
    assert all(colour[seat] != "#555555" for seat in colour if seat != "the box")


# --- Rules and languages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "heading", "cuckoo"),
    [("en", "how to play", "cuckoo"), ("fr", "comment jouer", "coucou"),
     ("pt", "como jogar", "cuco"), ("th", "วิธีเล่น", "นกคูคู")],
)  # fmt: skip
def test_rules_in_each_language(lang: str, heading: str, cuckoo: str) -> None:
    at = open_page("rules", lang=lang)
    rules = at.markdown[0].value
    assert rules.splitlines()[0].startswith("# Cuccù") and heading in rules.splitlines()[0]
    assert cuckoo in rules and "14½" in rules


def test_the_sidebar_language_drives_the_rules_text() -> None:
    at = open_page("rules")
    at.selectbox(key="lang_select").set_value("pt").run()
    assert "como jogar" in at.markdown[0].value
    assert not at.get("button_group")  # no second language switch on the page


@pytest.mark.parametrize("lang", list(LANGS))
def test_labels_follow_the_language_selector(lang: str, export_text: str) -> None:
    at = upload(open_page("replay", lang=lang), export_text)
    expected = {"en": "Next ›", "fr": "Suivant ›", "pt": "Próximo ›", "th": "ถัดไป ›"}[lang]
    assert table_data(at)["labels"]["next"] == expected
    assert at.selectbox(key="lang_select").value == lang


# --- Matches (API) ---------------------------------------------------------------------------


def test_matches_without_the_api_says_so() -> None:
    at = open_page("matches")
    assert "does not answer" in at.warning[0].value


def test_matches_lists_filters_and_opens_a_match(api: Api) -> None:
    first = api.bot_match(11, ("Ann", "Bob", "Cy", "Di"))
    second = api.bot_match(12, ("Eve", "Fay", "Gus", "Hal"))
    at = open_page("matches", api_url=api.base)
    table = at.dataframe[0].value
    assert {first[:8], second[:8]} <= set(table["Match"])
    assert set(table.loc[table["Match"] == first[:8], "Status"]) == {"finished"}

    at.text_input(key="f_name").input("eve").run()
    table = at.dataframe[0].value
    assert second[:8] in set(table["Match"]) and first[:8] not in set(table["Match"])

    at.selectbox(key="pick_match").set_value(second).run()
    at.button(key="open_selected").click().run()
    assert not at.exception
    assert f"Open: {second[:8]}" in texts(at) and table_data(at)["start"] == 0


def _settled(api: Api, match_id: str) -> dict[str, Any]:
    """The match's public view once its bots have moved: it waits for seat 0, a person, or for
    the next round to be dealt (the bots play in the service's workers, after the creation)."""
    for _ in range(300):
        found = httpx.get(f"{api.base}/matches/{match_id}", timeout=30).json()["view"]
        pending = found["pending"]
        if pending is not None and (pending["seat"] == 0 or pending["kind"] == "next_round"):
            return dict(found)
        time.sleep(0.1)
    raise AssertionError(f"the bots of {match_id} did not come to seat 0's turn")


def test_matches_ties_each_score_to_its_player_and_counts_the_round_in_play(api: Api) -> None:
    """Issue 20, problem 11: the scores were bare numbers ("3 3 3 3") beside the names, and a
    Cuccù match in its first round said 0 rounds (Cucco 21 said 1)."""
    finished = api.bot_match(14, ("Ann", "Bob", "Cy", "Di"))
    seats = [{"name": "Zed", "kind": "human"}] + [
        {"name": f"B{i}", "kind": "bot", "bot_level": "basic"} for i in range(3)
    ]
    playing = {
        game: httpx.post(f"{api.base}/matches", json={"seats": seats, "game": game},
                         timeout=30).json()["match_id"]
        for game in ("cuccu", "cucco21")
    }  # fmt: skip
    views = {game: _settled(api, match_id) for game, match_id in playing.items()}
    at = open_page("matches", api_url=api.base)
    table = at.dataframe[0].value
    assert "Players (lives or chips)" in table.columns and "Seats" not in table.columns
    row = table.loc[table["Match"] == finished[:8]].iloc[0]
    lives = [s["lives"] for s in httpx.get(f"{api.base}/matches/{finished}", timeout=30)
             .json()["view"]["seats"]]  # fmt: skip
    assert row["Players (lives or chips)"] == " · ".join(
        f"{name} {n}" for name, n in zip(("Ann", "Bob", "Cy", "Di"), lives, strict=True)
    )
    cuccu = table.loc[table["Match"] == playing["cuccu"][:8]].iloc[0]
    cucco21 = table.loc[table["Match"] == playing["cucco21"][:8]].iloc[0]
    # the bots' moves may end round 1 before Zed's turn (a hunter or a cat asked for): then the
    # match is between rounds, as the service says
    shown = {"in_round": "in progress", "between_rounds": "between rounds"}
    for game, row in (("cuccu", cuccu), ("cucco21", cucco21)):
        assert row["Status"] == shown[views[game]["status"]], (game, views[game]["status"])
    assert cuccu["Rounds"] == cucco21["Rounds"] == 1  # round 1 is being played in both
    # a bot that asks for a hunter or a cat loses a life at once, maybe before Zed decides: the
    # lives are the service's, each tied to its name
    now = httpx.get(f"{api.base}/matches/{playing['cuccu']}", timeout=30).json()["view"]
    assert cuccu["Players (lives or chips)"] == " · ".join(
        f"{s['name']} {s['lives']}" for s in now["seats"]
    )
    assert [s["name"] for s in now["seats"]] == ["Zed", "B0", "B1", "B2"]
    assert cucco21["Players (lives or chips)"].startswith("Zed ")


def test_a_finished_match_opens_by_link(api: Api) -> None:
    match_id = api.bot_match(13)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["api_url"] = api.base
    at.run()
    at.query_params["match"] = match_id
    at.switch_page("app_pages/audit.py").run()
    assert "Every check passes" in at.success[0].value


def test_an_ongoing_match_does_not_open_in_replay(api: Api) -> None:
    seats = [{"name": "Zed", "kind": "human"}] + [
        {"name": f"B{i}", "kind": "bot", "bot_level": "basic"} for i in range(3)
    ]
    created = httpx.post(f"{api.base}/matches", json={"seats": seats}, timeout=30).json()
    at = open_page("replay", api_url=api.base)
    at.text_input(key="load_id").input(created["match_id"])  # typed, sent with the click
    at.button(key="load_api").click().run()
    assert "refused" in at.error[0].value and "409" in at.error[0].value
    assert "No match is open" in at.info[0].value


# --- Play (API) ------------------------------------------------------------------------------


def _no_hidden_card_sent(
    api: Api, match_id: str, payloads: list[tuple[int, dict[str, Any]]]
) -> None:
    """Every card the Play page sent the browser's table for another seat was public then.

    The finished match's export shows every card: folded to the version each payload was
    drawn at, it says what a spectator could see; a face-up card of another seat that a
    spectator could not see would be a leak."""
    records = parse_export(httpx.get(f"{api.base}/matches/{match_id}/export", timeout=30).text)
    states = [CUCCU.initial()]
    for record in records.records:  # Cuccù's events and the decks' entropy around them
        states.append(CUCCU.evolve(states[-1], record.event))
    hidden_seen = 0
    for version, data in payloads:
        public = view(states[version], None)
        shown = {r.seat: r.card for r in public.revealed}
        for seat in data["steps"][0]["t"]["seats"]:
            corner, _, state = seat["card"]
            if seat["seat"] == 0:
                continue
            card = public.hands[seat["seat"]] or shown.get(seat["seat"])
            if state == "up":
                assert card is not None and corner == card_numeral(card), (version, seat)
            elif state == "down":
                hidden_seen += 1
    assert hidden_seen > 0  # the check met hidden cards, and none was sent face up


def test_play_a_whole_match_against_three_bots(api: Api) -> None:
    at = open_page("play", api_url=api.base)
    at.text_input(key="play_name").input("Tester")
    at.button[0].click().run()  # the form's submit button
    assert not at.exception, at.exception
    game = at.session_state["game"]
    assert [s.name for s in game.view.seats] == ["Tester", "Ada", "Bruno", "Chiara"]
    # Skip first: after a choice the page shows its steps one at a time until skipped
    preferred = ("play_skip", "play_skip_end", "do_next_round", "do_inn_accept", "do_inn_ask_pay",
                 "do_exchange", "do_keep")  # fmt: skip
    payloads: list[tuple[int, dict[str, Any]]] = []
    endings = 0
    for _ in range(400):
        game = at.session_state["game"]
        if game.view.status == "over" and game.shown is None:
            break
        # while the match runs, the seat never holds another seat's unrevealed card
        for seen in game.seen if game.view.status != "over" else ():
            card = getattr(seen.event, "card", "x")
            if type(seen.event).__name__ == "CardDealt" and seen.event.seat != 0:
                assert card is None
        payloads.append((game.view.version, table_data(at)))
        keys = {b.key for b in at.button}
        if "do_next_round" in keys:  # between rounds: how the round ended, not just the log
            heading = f"How round {game.view.round} ended"
            summary = [m.value for m in at.markdown if heading in m.value]
            assert summary and "- " in summary[0], texts(at)
            endings += 1
        key = next(k for k in preferred if k in keys)
        at.button(key=key).click().run()
        assert not at.exception, at.exception
    assert game.view.status == "over" and endings >= 1
    _no_hidden_card_sent(api, game.match_id, payloads)
    assert "The match is over" in at.success[0].value
    at.button(key="play_replay").click().run()
    assert table_data(at)["mode"] == "replay"
    assert at.session_state["cuccu_open_match"].report.ok  # the audit passes on it


def test_the_audit_of_an_unfinished_log_names_no_hidden_card(export_text: str) -> None:
    lines = export_text.splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"round_ended"' in line) + 8
    at = upload(open_page("audit"), "\n".join(lines[:cut]) + "\n", "running.ndjson")
    failing = [e.value for e in at.error[1:]]
    assert any("Complete match" in f for f in failing)
    assert all("finished matches only" in f for f in failing)
    assert not at.expander or all("as recorded" not in e.label for e in at.expander)


def test_the_api_address_and_language_survive_page_switches(api: Api) -> None:
    at = open_page("matches")  # nothing listens at the default address of these tests
    assert "does not answer" in at.warning[0].value
    at.text_input(key="api_url_input").input(api.base).run()
    at.selectbox(key="lang_select").set_value("fr").run()
    for page in ("replay", "rules", "matches"):
        at.switch_page(f"app_pages/{page}.py").run()
    assert at.text_input(key="api_url_input").value == api.base
    assert at.selectbox(key="lang_select").value == "fr"
    assert not at.warning and "parties sur" in texts(at)


def test_the_audit_shows_the_matchs_place_in_the_log_and_its_checkpoint(api: Api) -> None:
    match_id = api.bot_match(32)
    for _ in range(100):  # appended just after the commit that sealed it
        proof = httpx.get(f"{api.base}/log/proof/inclusion", params={"match": match_id})
        if proof.status_code == 200:
            break
    assert proof.status_code == 200, proof.text
    export = httpx.get(f"{api.base}/matches/{match_id}/export", timeout=30).text
    checkpoint = json.loads(export.splitlines()[-1])["log"]["checkpoint"]
    at = upload(open_page("audit", api_url=api.base), export)
    [logged] = [s.value for s in at.success if "**Transparency log**" in s.value]
    index, size = proof.json()["index"], checkpoint.split("\n")[1]
    assert f"leaf {index} (counting from 0) of the {size} in the public log of {api.base}" in logged
    assert checkpoint.strip() in [c.value.strip() for c in at.code]  # the one checked against
    at = upload(open_page("audit", lang="pt", api_url=api.base), export)
    assert any("**Registo de transparência**" in s.value for s in at.success)
    # where the viewer cannot reach the service, it has no log key to check with
    at = upload(open_page("audit"), export)
    assert any("**Transparency log** — not checked" in w.value for w in at.warning)
    # a proof of another leaf fails
    last = json.loads(export.splitlines()[-1])
    last["log"]["index"] += 1
    forged = "\n".join([*export.splitlines()[:-1], json.dumps(last)]) + "\n"
    at = upload(open_page("audit", api_url=api.base), forged, "forged.ndjson")
    assert any("**Transparency log**" in e.value for e in at.error)


# --- Leaderboard -----------------------------------------------------------------------------


def test_leaderboard_without_the_api_says_so() -> None:
    at = open_page("leaderboard")
    assert "does not answer" in at.warning[0].value


def test_leaderboard_ranks_accounts_and_opens_a_players_match(api: Api) -> None:
    names = ("board-ann", "board-bob")
    keys = [
        httpx.post(f"{api.base}/players", json={"name": n, "kind": "bot"}, timeout=30).json()
        for n in names
    ]
    table = {"seats": [{"name": "open", "kind": "open"}] * 2, "starting_lives": 1, "seed": 3}
    mid = httpx.post(f"{api.base}/matches", json=table, timeout=30).json()["match_id"]
    tokens = {}
    for seat, k in enumerate(keys):
        claimed = httpx.post(
            f"{api.base}/matches/{mid}/seats/{seat}/claim", json={"name": names[seat]},
            headers={"Authorization": f"Bearer {k['key']}"}, timeout=30,
        )  # fmt: skip
        tokens[seat] = {"Authorization": f"Bearer {claimed.json()['token']}"}
    for _ in range(2_000):
        view = httpx.get(f"{api.base}/matches/{mid}", headers=tokens[0], timeout=30).json()
        pending = view["view"]["pending"]
        if pending is None:
            break
        me = tokens[0] if pending["seat"] is None else tokens[pending["seat"]]
        own = httpx.get(f"{api.base}/matches/{mid}", headers=me, timeout=30).json()
        choice = own["view"]["pending"]["choices"][0]
        httpx.post(f"{api.base}/matches/{mid}/commands", json={"type": choice}, headers=me,
                   timeout=30).raise_for_status()  # fmt: skip

    at = open_page("leaderboard", api_url=api.base)
    board = at.dataframe[0].value
    assert set(board["Player"]) >= set(names)
    assert list(board["Rank"]) == list(range(1, len(board) + 1))
    at.selectbox(key="board_player").set_value(keys[1]["player"]["id"]).run()
    history = at.dataframe[1].value
    assert list(history["Match"]) == [mid[:8]] and list(history["Rated"]) == ["yes"]
    at.button(key="board_open").click().run()
    assert not at.exception
    assert f"Open: {mid[:8]}" in texts(at)

    fr = open_page("leaderboard", lang="fr", api_url=api.base)
    assert "Rang" in fr.dataframe[0].value.columns


def _mixed_match() -> list[Any]:
    """A Cuccù match where Ann claims seat 0 and sends entropy before each of her commands."""
    game = CUCCU
    seats = (SeatSpec("open", "open"), SeatSpec("Bo", "bot", "random"))
    state, events = game.apply(game.initial(), game.create_command(seats, 0, {"starting_lives": 1}))
    state, steps = advance(state, 3, game)  # the first deck's commitment
    events += [e for step in steps for e in step.events]
    state, more = game.apply(state, game.claim_command(0, "Ann"))
    events += more
    answers = random.Random(3)
    while True:
        state, more = game.apply(state, Contribute(0, os.urandom(16).hex()))
        events += more
        state, steps = advance(state, 3, game)
        events += [e for step in steps for e in step.events]
        if game.is_over(state):
            return events
        pending = game.view(state, 0).pending
        choice = "next_round" if pending.seat is None else answers.choice(pending.choices)
        state, more = game.apply(state, game.player_command(state, 0, choice, random.Random()))
        events += more
