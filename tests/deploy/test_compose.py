"""compose*.yaml, the Dockerfiles and the balancer's configuration stay consistent with the app's
settings and CLI (static checks: no Docker engine needed)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.engine import make_url

from api.cli import build_parser
from api.settings import DEFAULT_PORT, ENV_VARS, normalize_database_url

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / name).read_text())
    return data


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return _load("compose.yaml")


def _published(ports: list[str]) -> list[tuple[str, int, int]]:
    """(address, host port, container port) of each mapping, with ${VAR:-default} at default."""
    out = []
    for spec in ports:
        plain = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", spec)
        address, host, container = plain.split(":")
        out.append((address, int(host), int(container)))
    return out


def _env(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def test_services_and_volume(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"db", "migrate", "api", "viewer"} <= set(services)
    db = services["db"]
    assert "healthcheck" in db
    volume = db["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]  # a named volume, not a bind mount
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["api"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )


def _migrate_steps(service: dict[str, Any]) -> list[list[str]]:
    """The ``cuccu`` commands the one-shot migrate service runs, in order (``sh -c "a && b"``)."""
    command = service["command"]
    assert command[:2] == ["sh", "-c"] and len(command) == 3, command
    return [shlex.split(step) for step in command[2].split("&&")]


def test_commands_are_real_cli_commands(compose: dict[str, Any]) -> None:
    parser = build_parser()
    upgrade, keys_init = _migrate_steps(compose["services"]["migrate"])
    assert upgrade[0] == keys_init[0] == "cuccu"
    args = parser.parse_args(upgrade[1:])
    assert (args.command, args.db_command) == ("db", "upgrade")
    args = parser.parse_args(keys_init[1:])
    assert (args.command, args.keys_command) == ("keys", "init")
    api = compose["services"]["api"]["command"]
    assert api[0] == "cuccu"
    args = parser.parse_args(api[1:])
    assert args.command == "run" and args.no_migrate  # the migrate service did it
    port = args.port
    assert _published(compose["services"]["api"]["ports"]) == [("127.0.0.1", port, port)]
    assert port == DEFAULT_PORT
    assert _env(compose["services"]["api"])["CUCCU_PORT"] == str(port)
    assert str(port) in " ".join(compose["services"]["api"]["healthcheck"]["test"])
    viewer = compose["services"]["viewer"]["command"]
    assert viewer[:2] == ["streamlit", "run"]
    vport = int(viewer[viewer.index("--server.port") + 1])
    assert _published(compose["services"]["viewer"]["ports"]) == [("127.0.0.1", vport, vport)]


def test_variables_are_ones_the_app_reads(compose: dict[str, Any]) -> None:
    db_env = _env(compose["services"]["db"])
    for name in ("migrate", "api", "viewer"):
        env = _env(compose["services"][name])
        assert set(env) <= set(ENV_VARS), (name, set(env) - set(ENV_VARS))
        if "CUCCU_DATABASE_URL" in env:
            url = make_url(normalize_database_url(env["CUCCU_DATABASE_URL"]))
            assert url.drivername == "postgresql+psycopg"
            assert url.host == "db"
            assert url.username == db_env["POSTGRES_USER"]
            assert url.password == db_env["POSTGRES_PASSWORD"]
            assert url.database == db_env["POSTGRES_DB"]
    api_url = _env(compose["services"]["viewer"])["CUCCU_API_URL"]
    assert api_url == f"http://api:{DEFAULT_PORT}"


@pytest.mark.parametrize("name", ["compose.yaml", "compose.scale.yaml"])
def test_one_signing_key_made_by_migrate_in_a_named_volume(name: str) -> None:
    """migrate makes the key once (`cuccu keys init`) where every API process reads it: the
    same named volume and CUCCU_SIGNING_KEY in both. The viewer needs no key: it trusts the
    ring the API serves (viewer/loader.py)."""
    stack = _load(name)
    services = stack["services"]
    mounts = {}
    for service in ("migrate", "api"):
        key = _env(services[service])["CUCCU_SIGNING_KEY"]
        [volume] = [v for v in services[service]["volumes"] if key.startswith(v.split(":")[1])]
        mounts[service] = (key, volume)
    assert mounts["migrate"] == mounts["api"], mounts
    key, volume = mounts["api"]
    source, target = volume.split(":")
    assert source in stack["volumes"]  # a named volume: it outlives `down` (not `down -v`)
    assert key.startswith(target + "/") and key.endswith(".pem")
    if "viewer" in services:
        assert "volumes" not in services["viewer"]
        assert "CUCCU_SIGNING_KEY" not in _env(services["viewer"])
    # made by migrate, before any API process starts (they may not race to make it)
    assert _migrate_steps(services["migrate"])[-1] == ["cuccu", "keys", "init"]
    assert services["api"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )
    # both images give the mount point to the service's user, so the volume starts as theirs
    for dockerfile in ("Dockerfile", "docker/service/Dockerfile"):
        text = (ROOT / dockerfile).read_text()
        assert f"install -d -o cuccu -g cuccu -m 0700 {target}" in text, dockerfile


def test_dockerfile_copies_what_the_package_needs() -> None:
    text = (ROOT / "Dockerfile").read_text()
    for path in ("requirements.txt", "domain", "api", "viewer", "migrations", "alembic.ini"):
        assert path in text
    # the viewer's bundled Thai font (viewer/fonts) and the Rules page's texts (viewer/rules):
    # in the source tree that `streamlit run viewer/app.py` serves and in the wheel that
    # `cuccu run` starts the viewer from (tests/viewer/test_wheel.py installs that wheel)
    assert "COPY viewer ./viewer" in text
    assert re.search(r"^sources=\(.* viewer .*\)$", (ROOT / "docker/build-images.sh").read_text(),
                     re.MULTILINE)  # fmt: skip
    assert '"fonts/*.woff2"' in (ROOT / "pyproject.toml").read_text()  # package data
    assert '"rules/*/*.md"' in (ROOT / "pyproject.toml").read_text()
    assert (ROOT / "viewer/fonts/OFL.txt").is_file() and list(
        (ROOT / "viewer/fonts").glob("*.woff2")
    )
    assert "fonts" not in (ROOT / ".dockerignore").read_text()
    assert "pip install -r requirements.txt" in text


def test_local_override_changes_only_images(compose: dict[str, Any]) -> None:
    local = _load("compose.local.yaml")["services"]
    assert set(local) == set(compose["services"])
    for name, service in local.items():
        assert set(service) == {"image"}, name
        assert service["image"].startswith("cuccu/") and service["image"].endswith(":local")
    assert local["db"]["image"] == "cuccu/postgres:local"
    assert (ROOT / "docker/postgres/Dockerfile").is_file()


def test_scaled_stack_matches_the_single_one(compose: dict[str, Any]) -> None:
    scaled = _load("compose.scale.yaml")["services"]
    single = compose["services"]
    assert scaled["db"]["environment"] == single["db"]["environment"]
    assert scaled["db"]["healthcheck"] == single["db"]["healthcheck"]
    for name in ("migrate", "api"):
        assert scaled[name]["command"] == single[name]["command"], name
        assert scaled[name]["volumes"] == single[name]["volumes"], name
        assert _env(scaled[name])["CUCCU_SIGNING_KEY"] == _env(single[name])["CUCCU_SIGNING_KEY"]
    assert "ports" not in scaled["api"]  # replicas are reached through the balancer only
    assert scaled["api"]["deploy"]["replicas"] >= 2
    assert _published(scaled["lb"]["ports"]) == [("127.0.0.1", DEFAULT_PORT, DEFAULT_PORT)]
    cfg = (ROOT / "docker/haproxy/haproxy.cfg").read_text()
    assert f"server-template replica 8 api:{DEFAULT_PORT}" in cfg
    assert f"bind :{DEFAULT_PORT}" in cfg
    assert "option httpchk GET /ready" in cfg


@pytest.mark.parametrize(
    "files", [["compose.yaml"], ["compose.yaml", "compose.local.yaml"], ["compose.scale.yaml"]]
)
def test_docker_compose_config_validates(files: list[str]) -> None:
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.skip("docker-compose is not installed (CI installs Debian's package)")
    args = [arg for f in files for arg in ("-f", str(ROOT / f))]
    done = subprocess.run(
        [exe, *args, "config", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
