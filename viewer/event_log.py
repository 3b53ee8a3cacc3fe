"""Play's log of what a seat has seen: a narrow event number and sentences that wrap.

A ``st.dataframe`` gave the number column 40 % of a desktop window and cut the sentences off on
a phone (its cells never wrap); this is a plain HTML table that scrolls inside a fixed height.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import streamlit as st

#: the log's look; ``cuccu-log`` names it for the browser tests too
_STYLE = """<style>
.cuccu-log { max-height: 300px; overflow-y: auto; border: 1px solid rgba(49, 51, 63, 0.2);
  border-radius: 0.5rem; }
.cuccu-log table { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
.cuccu-log th { position: sticky; top: 0; background: #f0ede4; text-align: left;
  font-weight: 600; }
.cuccu-log th, .cuccu-log td { padding: 0.3rem 0.5rem; border-bottom: 1px solid #e6e2d6;
  vertical-align: top; }
.cuccu-log .cuccu-log-n { width: 1%; white-space: nowrap; text-align: right; color: #555555; }
.cuccu-log .cuccu-log-text { overflow-wrap: anywhere; }
</style>"""


def log_html(rows: Sequence[tuple[int, str]], *, heading: str) -> str:
    """The log as HTML: one row per event, its number then its sentence (escaped: a seat's
    name is whatever a player typed)."""
    body = "".join(
        f'<tr><td class="cuccu-log-n">{number}</td>'
        f'<td class="cuccu-log-text">{html.escape(text)}</td></tr>'
        for number, text in rows
    )
    return (
        f'{_STYLE}<div class="cuccu-log" role="log"><table>'
        f'<thead><tr><th class="cuccu-log-n">#</th><th>{html.escape(heading)}</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def event_log(rows: Sequence[tuple[int, str]], *, heading: str) -> None:
    """Draw the log (newest first is the caller's choice of order)."""
    st.html(log_html(rows, heading=heading))
