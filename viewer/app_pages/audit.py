"""Audit: the domain/audit.py report of the open match, each check green or red."""

from __future__ import annotations

import streamlit as st

from domain.audit import CheckResult, record_json
from domain.entropy import DeckSource
from domain.event_codec import event_type
from viewer import session
from viewer.loader import match_panel
from viewer.session import OpenMatch
from viewer.ui import N, T, api_url


def _words(key: str, fallback: str) -> str:
    """``key``'s text, or ``fallback`` for a check this catalog has no words for yet (the audit
    names each game's checks; the viewer shows whatever it reports)."""
    text = T(key)
    return fallback if text == key else text


def _check(match: OpenMatch, check: CheckResult) -> None:
    title = _words(f"check.{check.name}", str(check.name).replace("_", " ").capitalize())
    why = _words(f"why.{check.name}", "")
    if check.ok:
        st.success(
            f"**{title}** — {T('audit.pass', checked=check.checked)}  \n{why}",
            icon=":material/check_circle:",
        )
        return
    version = check.version or 0
    full = match.replay.full  # an unfinished log keeps its hidden cards hidden, details too
    detail = check.detail if full else T("audit.hidden")
    st.error(f"**{title}** — {T('audit.fail', version=version)}  \n{detail}  \n_{why}_",
             icon=":material/cancel:")  # fmt: skip
    left, right = st.columns([1, 2])
    if 0 < version <= match.replay.last_step and left.button(
        T("audit.show", version=version), key=f"show_{check.name}"
    ):
        session.go(version)
        linked = {"match": match.match_id} if match.match_id else None
        st.switch_page("app_pages/replay.py", query_params=linked)
    if full and 0 < version <= len(match.records):
        with right.expander(T("audit.event")):
            st.json(record_json(match.records[version - 1]))


def page() -> None:
    match = match_panel()
    if match is None:
        return
    report = match.report
    if report.ok:
        st.success(T("audit.ok"), icon=":material/verified_user:")
    else:
        st.error(N("audit.failed", len(report.failures), total=len(report.checks)),
                 icon=":material/error:")  # fmt: skip
    for check in report.checks:
        _check(match, check)
    _decks(match)
    _signature(match)
    _log(match)


def _seat_names(match: OpenMatch) -> list[str]:
    """Each seat's name: as created, then as claimed (every game names its seats the same)."""
    if not match.records:
        return []
    names = [seat.name for seat in getattr(match.records[0].event, "seats", ())]
    for record in match.records:
        event = record.event
        if event_type(event) == "seat_claimed" and 0 <= event.seat < len(names):
            names[event.seat] = event.name
    return names


def _source(deck: DeckSource, names: list[str]) -> tuple[str, str]:
    """What a deck's row says: where it came from, and whose entropy went into it."""
    if deck.source == "operator":
        return T("decks.operator"), "–"
    if not deck.contributors:
        return T("decks.alone"), "–"
    who = [
        f"{names[s]} ({T('decks.seat', seat=s)})" if s < len(names) else T("decks.seat", seat=s)
        for s in deck.contributors
    ]
    return T("decks.mixed"), ", ".join(who)


def _decks(match: OpenMatch) -> None:
    """Whose entropy went into each deck (docs/API.md "Fairness"): the audit's ``entropy``
    check has verified every mixed one against its revealed secret."""
    decks = match.report.decks
    if not decks:
        return
    st.markdown(f"**{T('decks.title')}**")
    st.caption(T("decks.why"))
    names = _seat_names(match)
    rows = []
    for deck in decks:
        source, who = _source(deck, names)
        noun = _words(f"decks.noun.{deck.noun}", deck.noun)
        rows.append({
            T("decks.col.deck"): f"{noun} {deck.number}",
            T("decks.col.source"): source,
            T("decks.col.from"): who,
        })  # fmt: skip
    st.dataframe(rows, hide_index=True, width="stretch")


def _log(match: OpenMatch) -> None:
    """The result's place in the transparency log, and the checkpoint it was checked against
    (signed by the log key of the API the viewer uses)."""
    logged = match.logged
    if logged is None:
        return
    title = T("log.title")
    if logged.ok:
        where = T("log.ok", index=logged.index, size=logged.tree_size, url=api_url())
        st.success(f"**{title}** — {where}", icon=":material/account_tree:")
        with st.expander(T("log.checkpoint")):
            st.code(logged.checkpoint or "", language=None)
    elif logged.status == "not-in-log":
        st.info(f"**{title}** — {T('log.missing')}", icon=":material/info:")
    elif logged.status == "untrusted":
        st.warning(f"**{title}** — {T('log.untrusted', url=api_url())}", icon=":material/warning:")
    else:
        st.error(f"**{title}** — {T('log.failed', url=api_url())}", icon=":material/error:")
        st.caption(f"`{logged.detail}`")


def _signature(match: OpenMatch) -> None:
    """Whether the service that recorded the log signed it (checked with the keys it serves)."""
    signed = match.signature
    if signed is None:
        return
    if signed.ok:
        key = T("sig.key", kid=match.seal_key or "?")
        st.success(f"**{T('sig.title')}** — {T('sig.ok', url=api_url())}  \n{key}",
                   icon=":material/verified:")  # fmt: skip
    elif signed.status == "unsigned":
        st.warning(f"**{T('sig.title')}** — {T('sig.unsigned')}", icon=":material/warning:")
    else:
        # the reason in the reader's language; the checker's own words for whoever digs further
        why = _words(f"sig.why.{signed.status}", "")
        st.error(f"**{T('sig.title')}** — {T('sig.failed', url=api_url())}  \n{why}",
                 icon=":material/error:")  # fmt: skip
        st.caption(f"`{signed.detail}`")


page()
