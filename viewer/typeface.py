"""The Thai typeface the viewer ships, so Thai reads on a machine that has no Thai font.

Streamlit draws its text in "Source Sans", which has no Thai letters; a browser with no Thai
system font then shows boxes. The bundled face (Noto Sans Thai, SIL OFL 1.1, ``fonts/OFL.txt``)
is declared as one more face of that same family, limited to the Thai block by
``unicode-range``: every widget, heading and chart label that uses Streamlit's font picks it for
Thai letters and keeps Source Sans for the rest. It is inlined as a data URL so that it loads
from the page itself: nothing is fetched from the network and no static-file setting is needed,
whichever way the viewer is started.
"""

from __future__ import annotations

import base64
from functools import cache
from pathlib import Path

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "NotoSansThai-thai-wght.woff2"
FAMILY = "Source Sans"  # Streamlit's body font, which the bundled face extends with Thai
FONT_STACK = f"'{FAMILY}', sans-serif"  # for text the viewer draws itself (SVG, chart marks)
THAI_RANGE = "U+0E01-0E5B, U+25CC"  # the Thai block, and the dotted circle of a lone mark


@cache
def font_face_css() -> str:
    """The ``<style>`` that declares the bundled Thai face.

    Same weight range and style as Streamlit's own Source Sans face: the browser then treats
    both as one face split by character range, for every weight a heading or label asks for.
    """
    data = base64.b64encode(FONT_FILE.read_bytes()).decode("ascii")
    return (
        "<style>@font-face{"
        f'font-family:"{FAMILY}";font-style:normal;font-weight:100 900;font-display:swap;'
        f'src:url(data:font/woff2;base64,{data}) format("woff2");'
        f"unicode-range:{THAI_RANGE}"
        "}</style>"
    )
