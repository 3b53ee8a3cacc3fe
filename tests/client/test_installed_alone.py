"""The Python client installed on its own (``clients/python``): its wheel, installed into a
fresh virtual environment with nothing but its dependencies, plays a whole match against a
real server, and the server's packages are not there to import.

No network: the client's wheel is built from the checkout, and the wheels of httpx and what
it needs are repacked from this environment's installed copies (all pure Python), so pip
resolves the client's declared dependencies from that folder alone (``--no-index``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import Distribution, distribution
from pathlib import Path

from packaging.requirements import Requirement

from api.app import API_VERSION
from tests.integration.server import ROOT, Server

CLIENT = ROOT / "clients" / "python"

#: run in the fresh environment: plays seat 0 to the end, sync, then reads the end async
PLAY = r"""
import asyncio, importlib.util, json, sys
import cuccu_client
from cuccu_client import AsyncClient, Client, bot, human

base = sys.argv[1]
absent = [m for m in ("litestar", "sqlalchemy", "msgspec", "domain", "api")
          if importlib.util.find_spec(m) is not None]
with Client(base) as c:
    created = c.create_match([human("Ann"), bot("Bo"), bot("Cy")])
    mid = created["match_id"]
    c.token = created["seat_tokens"][0]["token"]
    messages = commands = 0
    for message in c.stream(mid):
        messages += 1
        current = c.get_match(mid)
        pending = current["view"]["pending"]
        if pending and (pending["seat"] in (None, 0)):
            try:
                c.send_command(mid, pending["choices"][0], expected_version=current["version"])
                commands += 1
            except cuccu_client.Conflict:
                pass  # a bot moved first

async def final():
    async with AsyncClient(base) as a:
        return await a.get_match(mid)

end = asyncio.run(final())
print(json.dumps({"module": cuccu_client.__file__, "importable": absent, "status":
                  end["view"]["status"], "version": end["version"], "messages": messages,
                  "commands": commands}))
"""


def repack(dist: Distribution, into: Path) -> Path:
    """A wheel of an installed pure-Python distribution, made from its installed files."""
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    info = f"{name}-{dist.version}.dist-info"
    tag = next(line.split(": ", 1)[1] for line in (dist.read_text("WHEEL") or "").splitlines()
               if line.startswith("Tag: "))  # fmt: skip
    assert tag.endswith("-none-any"), (name, tag)  # pure Python: the same files anywhere
    wheel = into / f"{name}-{dist.version}-{tag}.whl"
    skipped = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
    record = []
    with zipfile.ZipFile(wheel, "w") as zipped:
        for file in dist.files or []:
            path = file.as_posix()
            if path.startswith("..") or "__pycache__" in path:
                continue  # console scripts and compiled files: pip makes them again
            if Path(path).parent.name.endswith(".dist-info") and Path(path).name in skipped:
                continue
            data = Path(str(file.locate())).read_bytes()
            zipped.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{path},sha256={digest.decode()},{len(data)}")
        record.append(f"{info}/RECORD,,")
        zipped.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def requirements_of(name: str) -> set[str]:
    """``name`` and every distribution it needs here (its extras left out), transitively."""
    found: set[str] = set()
    todo = [name]
    while todo:
        dist = distribution(todo.pop())
        key = dist.metadata["Name"].lower()
        if key in found:
            continue
        found.add(key)
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return found


def test_the_client_alone_plays_a_whole_match(sqlite_server: Server, tmp_path: Path) -> None:
    # the client's wheel, built from a copy of its folder (the link to api/client.py followed)
    source, wheels = tmp_path / "source", tmp_path / "wheels"
    shutil.copytree(CLIENT, source, symlinks=False)
    wheels.mkdir()
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "--wheel-dir", str(wheels), str(source)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    built = next(wheels.glob("cuccu_client-*.whl"))
    assert built.name.startswith(f"cuccu_client-{API_VERSION}-"), "its version is the API's"
    with zipfile.ZipFile(built) as zipped:
        assert zipped.read("cuccu_client/__init__.py") == (ROOT / "api/client.py").read_bytes()
        metadata = zipped.read(f"cuccu_client-{API_VERSION}.dist-info/METADATA").decode()
    needs = [Requirement(line.split(": ", 1)[1]).name for line in metadata.splitlines()
             if line.startswith("Requires-Dist: ")]  # fmt: skip
    assert needs == ["httpx"]
    for name in requirements_of("httpx"):
        repack(distribution(name), wheels)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-index", "--find-links", str(wheels),
         "cuccu-client"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    played = subprocess.run(
        [str(python), "-c", PLAY, sqlite_server.base],
        cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},  # no PYTHONPATH: the checkout is not seen
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    got = json.loads(played.stdout)
    assert got["module"].startswith(str(venv))
    assert got["importable"] == []  # neither the server's packages nor the project's
    assert got["status"] == "over" and got["commands"] > 0
    assert got["messages"] >= 2  # the first view, then the match's events, to the end
