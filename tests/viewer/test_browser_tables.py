"""Issue 20, item 4 in a real browser: two people play each other through the Tables page and a
third watches.

Three browser contexts (three Streamlit sessions, as three people's browsers) on `cuccu run`:
the first creates a table (two open seats and a bot) and takes a seat, the second opens the
invite link and takes the other, the third opens the same link and watches. A move in one
browser must show in the other, and in the spectator's, without a reload; the time it takes is
printed (a figure, not an assertion). The spectator's page and every answer its browser
received (the app's WebSocket frames and HTTP bodies) must hold neither player's hidden card.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pyarrow
import pyarrow.ipc
from google.protobuf.message import DecodeError, Message
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from domain.games.cuccu.cards import CARDS
from tests.viewer.browser import TIMEOUT_MS, choices, main_text, open_app, running, settle
from tests.viewer.support import Api
from viewer import tables
from viewer.games.cuccu_captions import card_name
from viewer.remote import connect

if TYPE_CHECKING:
    from playwright.sync_api import Page

VERSION = re.compile(r"version (\d+)")
PACING = re.compile(r"Move \d+ of \d+ since your choice")  # a page showing its moves one at a time
CARD = re.compile(r"Your card: (.+?)(?: \(\d+\))?$", re.M)  # "VII (7)": the name is "VII"
WINDOW = {"width": 1366, "height": 900}  # each person's browser
SEEN_WITHIN_S = 30.0  # a functional wait on 2 shared cores; the figure printed is the point
TIMED_MOVES = 3  # moves whose times are printed, one after another


def _choose(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the select box ``label`` (once more if the list did not open)."""
    box = page.get_by_role("combobox", name=label)
    for attempt in (1, 2):
        box.click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=10_000)
            return
        except Exception:
            if attempt == 2:
                raise


def _claim(page: Page, name: str) -> None:
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take this seat").click()
    expect(page.get_by_text(re.compile(r"Match \w+ · round"))).to_be_visible()


def _shown_version(page: Page) -> int | None:
    """The match version the page shows (None while it shows none)."""
    found = VERSION.search(main_text(page))
    return int(found.group(1)) if found else None


def _version(page: Page) -> int:
    shown = _shown_version(page)
    assert shown is not None, "the seat's page shows no match version"
    return shown


NEWS_ASKED = """() => {
    const found = document.querySelector('.st-key-hidden_news');
    return found ? found.textContent : null;
}"""


def _news_runs(pages: list[Page]) -> str:
    """Whether each page still asks for news: the count its ``_news`` draws, hidden, read twice
    two seconds apart (a page whose count stands still has lost its fragment's timer)."""
    first = [page.evaluate(NEWS_ASKED) for page in pages]
    pages[0].wait_for_timeout(2000)
    second = [page.evaluate(NEWS_ASKED) for page in pages]
    counts = list(zip(first, second, strict=True))
    return f"each page's news count, then two seconds later: {counts}"


def _deciding(pages: list[Page], url: str) -> Page:
    """The page whose seat must decide now (the bot may move first: wait for a person's turn):
    one that offers choices once its run has ended. Not one that merely reads "Your decision":
    while a page is drawn again its elements of the run before stay until the run ends, so the
    page of the person who has just moved still read it for a moment after it showed the move
    (a fresh-clone CI run then waited a minute for that person's choices, on the wrong page).
    And one that shows the match's version now: between rounds both people are offered *Next
    round*, and the page of the one who did not start it offers it until it catches up; a
    click there asks for a round already dealt, and nothing moves."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        now = httpx.get(url, timeout=30).json()["version"]
        for page in pages:
            if choices(page).count() and not running(page) and _shown_version(page) == now:
                return page
        pages[0].wait_for_timeout(200)
    pending = httpx.get(url, timeout=30).json()["view"]["pending"]
    shown = [main_text(page)[:300] for page in pages]
    raise AssertionError(
        f"no page offered a choice; the match waits for {pending}; {shown}; {_news_runs(pages)}"
    )


def _take_first_choice(mover: Page, pages: list[Page], url: str) -> None:
    """The mover takes the first choice its page offers; if it goes away before the click, the
    failure says what the match waits for and what each page shows, and whether it still asks."""
    try:
        choices(mover).first.click()
    except PlaywrightTimeoutError as error:
        pending = httpx.get(url, timeout=30).json()["view"]["pending"]
        shown = [main_text(page)[:600] for page in pages]
        raise AssertionError(
            f"the mover's choice went away before the click (page {pages.index(mover) + 1}); "
            f"the match waits for {pending}; {shown}; {_news_runs(pages)}"
        ) from error


# Each page notes, as its own drawing changes, the time (the machine's clock, as Python's
# ``time.time()``) and the match version its main part shows: a move's time in a browser is
# when the page drew it, not when the test next happened to look (reading three pages' text in
# turn took 0.1-0.2 s a round on this box, which every figure would have carried).
VERSIONS_SEEN = """(() => {
    window.__versions = [];
    // the moment of the last click in the page (the test's clock starts there)
    document.addEventListener("click", () => { window.__clicked = Date.now(); }, true);
    let last = -1;
    const look = () => {
        const main = document.querySelector('[data-testid="stMain"]');
        const found = main && /version (\\d+)/.exec(main.textContent);
        if (found && Number(found[1]) !== last) {
            last = Number(found[1]);
            window.__versions.push([Date.now(), last]);
        }
    };
    new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                  characterData: true});
})()"""
DRAWN_AFTER = """(version) => {
    const found = (window.__versions || []).find(([, seen]) => seen > version);
    return found ? found[0] : null;
}"""


def _seen_at(pages: list[Page], api: str, version: int, since: float) -> list[float]:
    """Seconds from ``since`` (``time.time()``) until each page (never reloaded) drew a version
    above ``version``, all watched at once; last, until the API's public view (``api``: the
    match's URL) has it."""
    deadline = since + SEEN_WITHIN_S
    seen: dict[int, float] = {}
    while len(seen) < len(pages) + 1:
        for i, page in enumerate(pages):
            drawn = page.evaluate(DRAWN_AFTER, version) if i not in seen else None
            if drawn is not None:
                seen[i] = drawn / 1000 - since
        if len(pages) not in seen and httpx.get(api, timeout=30).json()["version"] > version:
            seen[len(pages)] = time.time() - since
        if time.time() >= deadline:
            names = ["the mover", "the other player", "the spectator"][: len(pages)]
            missing = [names[i] for i in range(len(pages)) if i not in seen]
            behind = [main_text(page)[:600] for i, page in enumerate(pages) if i not in seen]
            answer = httpx.get(api, timeout=30).json()
            raise AssertionError(
                f"a move after version {version} not shown within {SEEN_WITHIN_S} s by "
                f"{missing + ([] if len(pages) in seen else ['the API'])}; the API is at "
                f"version {answer['version']}, waiting for {answer['view']['pending']}; the pages "
                f"drew "
                f"{[page.evaluate('window.__versions') for page in pages]}; the pages that "
                f"did not: {behind}; {_news_runs(pages)}"
            )
        pages[0].wait_for_timeout(20)
    return [seen[i] for i in range(len(pages) + 1)]


def _ever_public(api: Api, match_id: str) -> set[str]:
    """Every card id the match has shown to all so far: the public view's, and any named in
    its public log (an earlier round's cards are shown at its end, and each card has a twin:
    a name seen there is no leak of a card of the same name held now)."""
    public = httpx.get(f"{api.base}/matches/{match_id}", timeout=30).json()["view"]
    shown = {c for c in public["hands"] if c} | {r["card"] for r in public["revealed"]}
    after: int | None = 0
    while after is not None:
        page = httpx.get(f"{api.base}/matches/{match_id}/events",
                         params={"after": after, "limit": 1000}, timeout=30).json()  # fmt: skip
        shown |= _strings(page["events"]) & set(CARDS)
        after = page["next_after"]
    return shown


def _strings(value: Any) -> set[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value))
    return set()


def _hidden_names(api: Api, match_id: str, pages: list[Page]) -> set[str]:
    """Each player's card as their own page shows it (a seat is dealt on its turn: "—" before),
    unless the match has shown a card of that name to all."""
    shown_names = {card_name(c, "en") for c in _ever_public(api, match_id)}
    hidden = set()
    for page in pages:
        found = CARD.search(main_text(page))
        assert found, "a player's page shows no card"
        hidden.add(found.group(1).strip())
    return hidden - shown_names - {"—"}


# Streamlit's frames are binary: each is one ForwardMsg (protobuf), and a scan of their raw
# bytes for a one-letter name such as "I" or "V" matched a tag or a length byte now and then
# (a 0x49 length after a 0x2a tag is "*I"). So each frame is parsed with Streamlit's own proto
# classes and only its strings are scanned: its text fields, and the cells of any Arrow table
# it carries (a dataframe); a bytes field that is neither is scanned for sentences and JSON;
# base64 runs are left out of all of it.
_NOT_TEXT = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/=_-]{24,}")


def _text_in(received: str) -> str:
    """Runs of printable characters that hold a space or a quote (their base64 is left out of
    everything scanned, by ``_holds_none``)."""
    runs = _NOT_TEXT.split(received)
    return "\n".join(r for r in runs if len(r) >= 6 and (" " in r or '"' in r))


def _arrow_cells(data: bytes) -> list[str] | None:
    """Every cell and column name of an Arrow IPC stream, as text; None if it is not one."""
    try:
        table = pyarrow.ipc.open_stream(data).read_all()
    except (pyarrow.ArrowInvalid, OSError):
        return None
    cells = [str(name) for name in table.column_names]
    for column in table.columns:
        cells.extend(str(v) for v in column.to_pylist())
    return cells


def _proto_strings(message: Message) -> Iterator[str]:
    """Every string a protobuf message holds, however deep."""
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            for key, item in value.items():
                yield str(key)
                yield from (_proto_strings(item) if isinstance(item, Message) else [str(item)])
            continue
        for item in value if field.is_repeated else [value]:
            if isinstance(item, Message):
                yield from _proto_strings(item)
            elif isinstance(item, str):
                yield item
            elif isinstance(item, bytes):
                cells = _arrow_cells(item)
                text = cells if cells is not None else [_text_in(item.decode("utf-8", "replace"))]
                yield from text


def _forward_msg(frame: bytes) -> ForwardMsg | None:
    """A websocket frame as Streamlit's message; None if it is not one."""
    message = ForwardMsg()
    try:
        message.ParseFromString(frame)
    except DecodeError:
        return None
    return message


def _frame_text(frame: bytes | str) -> str:
    """The text a frame or an answer carries, one string per line."""
    if isinstance(frame, str):
        return frame  # an HTTP body: HTML or JSON, text through and through
    message = _forward_msg(frame)
    if message is None:
        return _text_in(frame.decode("utf-8", "replace"))
    return "\n".join(_proto_strings(message))


def _references(frames: list[bytes | str]) -> int:
    """How many of the messages received refer to one the browser should hold in its cache."""
    messages = (_forward_msg(f) for f in frames if isinstance(f, bytes))
    return sum(m is not None and m.WhichOneof("type") == "ref_hash" for m in messages)


def _holds_none(spectator: Page, frames: list[bytes | str], hidden: set[str]) -> None:
    """Neither the spectator's page nor anything its browser received names a hidden card (by
    its name, e.g. "VII", in any text it received, or by any of its ids, e.g. "7#1")."""
    text = main_text(spectator)
    assert frames, "the spectator's browser received nothing to scan"
    # base64 (an inline font or image, in a page or a field) is no text: a "/V/" in it is no card
    words = _BASE64.sub(" ", "\n".join(_frame_text(f) for f in frames))
    # the scan reads what the page was sent: its own words among them
    assert "You are watching" in words, "the scan found none of the page's text in its frames"
    for name in hidden:
        pattern = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
        assert not pattern.search(text), f"the spectator's page shows a hidden card: {name}"
        found = pattern.search(words)
        assert found is None, (
            f"the spectator's browser got a hidden card: {name} in "
            f"{words[max(0, found.start() - 80) : found.end() + 80]!r}"
        )
    for card in (c for c in CARDS if card_name(c, "en") in hidden):
        assert card not in words, f"the spectator's browser got a hidden card id: {card}"


def test_two_browsers_play_each_other_and_a_third_watches(
    service: tuple[Api, str], new_page: Callable[..., Page]
) -> None:
    api, viewer = service
    ann, bo, cy = (new_page(viewport=WINDOW) for _ in range(3))
    for page in (ann, bo, cy):
        page.add_init_script(VERSIONS_SEEN)
    frames: list[bytes | str] = []  # everything the spectator's browser received
    cy.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))

    def keep_body(response: Any) -> None:
        if response.request.resource_type in ("document", "xhr", "fetch"):
            # a redirect or an aborted answer has no body to scan
            with contextlib.suppress(Exception):
                frames.append(response.text())

    cy.on("response", keep_body)

    # Ann creates the table: two open seats and a bot; her page gives the invite link
    open_app(ann, f"{viewer}/tables")
    expect(ann.get_by_text("Create a table", exact=True)).to_be_visible()
    ann.get_by_label("Open seats (for people)").fill("2")
    ann.get_by_label("Bots").fill("1")
    # random bots answer at once: the figure printed is the viewer's, not a bot's thinking
    _choose(ann, "Opponents", "random")
    ann.get_by_role("button", name="Create the table").click()
    code = ann.locator('[data-testid="stCode"]').first
    expect(code).to_contain_text("?table=")
    invite = code.inner_text().strip()
    match_id = invite.rsplit("=", 1)[1]
    assert "token" not in invite
    _claim(ann, "Ann")
    expect(ann.get_by_text("Waiting for the other seats")).to_be_visible()

    # Bo opens the invite link, the table lists it as open, and he takes the other seat
    open_app(bo, invite)
    _claim(bo, "Bo")
    # Ann's page (never reloaded) sees Bo sit down and round 1 dealt
    expect(ann.get_by_text("Waiting for the other seats")).to_have_count(0)
    expect(ann.get_by_text(re.compile(r"round 1 · version")).first).to_be_visible()
    assert "token" not in ann.url and "token" not in bo.url

    # Cy opens the same link: every seat is taken, he watches
    open_app(cy, invite)
    expect(cy.get_by_text("Every seat of this table is taken")).to_be_visible()
    cy.get_by_role("button", name="Watch").click()
    expect(cy.get_by_text("You are watching")).to_be_visible()
    expect(cy.locator(".ct-board")).to_be_visible()

    url = f"{api.base}/matches/{match_id}"
    for _ in range(12):
        mover = _deciding([ann, bo], url)
        other = bo if mover is ann else ann
        settle(mover)
        before = _version(other)
        hidden = _hidden_names(api, match_id, [ann, bo])
        if hidden:
            break
        # no player's card is hidden yet (a seat is dealt on its turn, and a card asked
        # for may be shown to all, a refused cuckoo's say): play on until one is
        _take_first_choice(mover, [ann, bo, cy], url)
        _seen_at([mover, other], url, before, time.time())
    # the spectator has watched the match so far: it holds neither player's hidden card
    assert hidden, "no card of the players was hidden at the time of the scan"
    _holds_none(cy, frames, hidden)

    # the seat to decide takes its first choice; every browser shows it, never reloaded
    for timed in range(TIMED_MOVES):
        if timed:  # the next person to decide, once every page shows the move before
            mover = _deciding([ann, bo], url)
            other = bo if mover is ann else ann
            settle(mover)
            before = _version(other)
        # the other player's page may still show its own last choice's moves one at a time
        # (the pace, 1.5 s a move): it shows this one after them, and the figure says so
        pacing = other.get_by_text(PACING).count() > 0
        _take_first_choice(mover, [ann, bo, cy], url)
        clicked = (mover.evaluate("window.__clicked || null") or time.time() * 1000) / 1000
        own, to_player, to_spectator, stored = _seen_at([mover, other, cy], url, before, clicked)
        print(f"\nmove shown {own:.2f} s after the click in the mover's browser, "
              f"{to_player:.2f} s in the other player's, {to_spectator:.2f} s in the "
              f"spectator's (in the API's public view after {stored:.2f} s)"
              + ("; the other player's page was pacing" if pacing else ""))  # fmt: skip
        if timed == 0:
            expect(cy.get_by_text(re.compile(r"^Last: "))).to_be_visible()
            public = httpx.get(url, timeout=30).json()["view"]
            if public["status"] == "in_round" and public["round"] == 1:  # no reveal: scan again
                _holds_none(cy, frames, hidden)
    # the browser's message cache is off (viewer/launch.py, NO_MESSAGE_CACHE): nothing it
    # received refers to an element it was sent before, which it may have dropped meanwhile
    assert _references(frames) == 0, "the spectator's browser was sent references to its cache"
    # how often each page asked for news, and how often its guard found the questions stopped
    print(f"\nnews counts (Ann, Bo, the spectator): "
          f"{[page.evaluate(NEWS_ASKED) for page in (ann, bo, cy)]}")  # fmt: skip


# Streamlit's timer for a fragment's ``run_every`` is a ``setInterval`` of that many
# milliseconds (the news fragment's: 500); from the moment the test sets ``__newsStopped``, such
# a timer fires no more, as if Streamlit had lost it (other timers of the page are untouched).
NEWS_TIMER_STOPPED = """(() => {
    const interval = window.setInterval;
    window.setInterval = (run, ms, ...rest) =>
        interval((...args) => { if (!(window.__newsStopped && ms === 500)) run(...args); },
                 ms, ...rest);
})()"""


def test_a_page_whose_news_timer_is_lost_still_shows_a_move(
    service: tuple[Api, str], new_page: Callable[..., Page]
) -> None:
    """The spectator's page loses its news timer (a Streamlit bug could): its guard in the
    browser sees the news count stand still, asks for a whole run, and the page shows a move made
    meanwhile, without a reload; the count says the guard acted."""
    api, viewer = service
    match_id = tables.create_table(api.base, "cuccu", 2, 1, "random")
    seats = {s: tables.claim(api.base, match_id, s, n)[1] for s, n in ((0, "Ann"), (1, "Bo"))}
    page = new_page(viewport=WINDOW)
    page.add_init_script(NEWS_TIMER_STOPPED)
    open_app(page, f"{viewer}/tables?table={match_id}")
    page.get_by_role("button", name="Watch").click()
    expect(page.get_by_text("You are watching")).to_be_visible()
    before = _version(page)
    page.evaluate("window.__newsStopped = true")
    asked = page.evaluate(NEWS_ASKED)
    page.wait_for_timeout(1500)
    assert page.evaluate(NEWS_ASKED) == asked, "the news timer still ran: the test stops nothing"

    url = f"{api.base}/matches/{match_id}"
    view = httpx.get(url, timeout=30).json()["view"]
    pending = view["pending"]
    with connect(api.base, seats[pending["seat"] if pending["seat"] is not None else 0].token) as c:
        choice = c.get_match(match_id)["view"]["pending"]["choices"][0]
        c.send_command(match_id, choice, expected_version=view["version"])
    expect(page.get_by_text(re.compile(r"stalled [1-9]"))).to_have_count(1)
    page.wait_for_function(
        "(v) => { const m = /version (\\d+)/.exec(document.querySelector("
        "'[data-testid=\"stMain\"]').textContent); return m && Number(m[1]) > v; }",
        arg=before,
        timeout=TIMEOUT_MS,
    )
