"""The viewer as pip installs it from the wheel, away from the checkout: what it reads at run
time must ship inside the package (the images install that same wheel).

The wheel is built, as ``make images`` builds it, from a copy of the files that script puts in
the image's context, into a fresh folder: an old ``build/lib`` of the checkout (setuptools builds
in the tree) would otherwise slip files into it that the package data no longer names. Building
uses the dev environment's setuptools (``--no-build-isolation``), so no package index is needed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domain.games import GAMES
from tests.viewer.support import ROOT
from viewer.i18n import LANGS

# Runs in a process of its own with -I (neither the checkout nor PYTHONPATH on sys.path): the
# whole app from the installed copy, its Rules page for each language and game.
RULES_FROM_INSTALLED_APP = """
import json, sys
site, games, langs = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
sys.path.insert(0, site)
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(f"{site}/viewer/app.py", default_timeout=60)
at.session_state["api_url"] = "http://127.0.0.1:9"
at.run()
at.switch_page("app_pages/rules.py").run()
shown = {}
for lang in langs:
    at.session_state["lang"] = lang
    for game in games:
        at.radio(key="rules_game").set_value(game).run()
        if at.exception:
            sys.exit(f"{game}/{lang}: {[e.value for e in at.exception]}")
        shown[f"{game}/{lang}"] = [m.value for m in at.markdown]
modules = {name: sys.modules[name].__file__ for name in ("viewer", "viewer.ui", "domain")}
print(json.dumps({"shown": shown, "modules": modules}))
"""


def _image_sources() -> list[str]:
    """What ``docker/build-images.sh`` builds the project wheel from (its ``sources=(…)``)."""
    script = (ROOT / "docker" / "build-images.sh").read_text(encoding="utf-8")
    found = re.search(r"^sources=\((.*)\)$", script, re.MULTILINE)
    assert found, "docker/build-images.sh no longer names its sources"
    return found.group(1).split()


def _run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the project's wheel is installed into, and nothing else."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in _image_sources():
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    _run(*pip, "wheel", "--no-deps", "--no-index", "--no-build-isolation",
         "--wheel-dir", work / "dist", source, cwd=work)  # fmt: skip
    (wheel,) = (work / "dist").glob("cuccu-*.whl")
    _run(*pip, "install", "--no-deps", "--no-index", "--target", work / "site", wheel, cwd=work)
    return work / "site"


def test_the_installed_rules_page_shows_every_game_in_every_language(site: Path) -> None:
    out = _run(sys.executable, "-I", "-c", RULES_FROM_INSTALLED_APP, site, ",".join(GAMES),
               ",".join(LANGS), cwd=site.parent)  # fmt: skip
    answer = json.loads(out.splitlines()[-1])
    for name, file in answer["modules"].items():  # the installed copy ran, not the checkout
        assert Path(file).is_relative_to(site), (name, file)
    for game in GAMES:
        for lang in LANGS:
            shown = [text.strip() for text in answer["shown"][f"{game}/{lang}"]]
            text = (ROOT / "viewer" / "rules" / game / f"{lang}.md").read_text(encoding="utf-8")
            assert text.startswith("# "), (game, lang)
            assert text.strip() in shown, (game, lang)  # the whole text, as the page draws it


def test_the_card_table_component_ships_its_script_and_style(site: Path) -> None:
    """The component's JS and CSS are package data: the installed viewer draws the table."""
    for name in ("table.js", "table.css"):
        installed = site / "viewer" / "card_table" / name
        assert installed.read_bytes() == (ROOT / "viewer" / "card_table" / name).read_bytes()
    script = (site / "viewer" / "card_table" / "table.js").read_text(encoding="utf-8")
    assert "export default function" in script and "http" not in script.replace(
        "http://www.w3.org/2000/svg", ""
    )  # nothing fetched from a network
