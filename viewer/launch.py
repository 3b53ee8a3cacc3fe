"""Start the viewer (``streamlit run viewer/app.py``) beside the API, for ``cuccu run``."""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent / "app.py"
DEFAULT_VIEWER_PORT = 8501
#: Streamlit sends an element the browser holds in its message cache as a reference to it, on
#: the browser's word at the start of a run; the browser meanwhile drops entries two runs old,
#: and a live table's half-second news runs made that race real: a reference to a dropped entry
#: ("Cached ForwardMsg MISS") is fatal to the page's connection, which then never shows a move
#: again (1 run in 6-20 of the two-browser Tables test). No element is big enough to be cached
#: with this floor, so every element is sent whole: a few kB more per run on a local link.
NO_MESSAGE_CACHE = ("--global.minCachedMessageSize", "1e12")


def _port_free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, Linux only
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_viewer(host: str, api_port: int, viewer_port: int) -> subprocess.Popen[bytes] | None:
    """The viewer's process, reading the API at ``host:api_port``; None if it cannot start."""
    if importlib.util.find_spec("streamlit") is None:
        print("cuccu: streamlit is not installed; the viewer is not started", flush=True)
        return None
    if not _port_free(host, viewer_port):
        print(f"cuccu: port {viewer_port} is busy; the viewer is not started", flush=True)
        return None
    api_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    env = {**os.environ, "CUCCU_API_URL": f"http://{api_host}:{api_port}"}
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.port", str(viewer_port), "--server.address", host,
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",  # no Deploy button or developer menu for players
        # no watching of the sources: after every run, a live table's half-second looks among
        # them, Streamlit's watcher resolved the path of every loaded module on the thread that
        # sends the pages' updates, and a move reached the other browsers up to 1 s late
        "--server.fileWatcherType", "none",
        *NO_MESSAGE_CACHE,
    ]  # fmt: skip
    linux = sys.platform.startswith("linux")
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL,
        preexec_fn=_die_with_parent if linux else None,
    )  # fmt: skip
    print(f"cuccu: viewer on http://{api_host}:{viewer_port}", flush=True)
    return process


def stop_viewer(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
