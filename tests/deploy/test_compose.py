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


@pytest.mark.parametrize("name", ["compose.yaml", "compose.scale.yaml", "compose.ha.yaml"])
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


def test_ha_stack_routes_to_the_patroni_leader_in_strict_synchronous_mode(
    compose: dict[str, Any],
) -> None:
    """compose.ha.yaml (docs/DEPLOY.md, section 10): three Patroni nodes, strict synchronous
    replication, HAProxy choosing the leader by Patroni's REST checks, replicas behind it."""
    ha = _load("compose.ha.yaml")["services"]
    assert {"etcd", "pg1", "pg2", "pg3", "lb", "migrate", "api"} <= set(ha)
    for member in ("pg1", "pg2", "pg3"):
        assert ha[member]["image"] == "cuccu/patroni:local"
        assert ha[member]["hostname"] == member  # Patroni's connect addresses (entrypoint.sh)
        assert "ports" not in ha[member]
    patroni = yaml.safe_load((ROOT / "docker/patroni/patroni.yml").read_text())
    dcs = patroni["bootstrap"]["dcs"]
    assert dcs["synchronous_mode"] is True and dcs["synchronous_mode_strict"] is True
    assert dcs["loop_wait"] + 2 * dcs["retry_timeout"] <= dcs["ttl"]  # Patroni's rule
    assert dcs["postgresql"]["parameters"]["lc_messages"] == "C"  # api/store/events.py
    for name in ("migrate", "api"):
        url = make_url(_env(ha[name])["CUCCU_DATABASE_URL"])
        assert (url.host, url.port) == ("lb", 5432), name
        assert ha[name]["command"] == compose["services"][name]["command"], name
    assert "ports" not in ha["api"] and ha["api"]["deploy"]["replicas"] >= 2
    published = _published(ha["lb"]["ports"])
    assert {address for address, _, _ in published} == {"127.0.0.1"}
    assert {port for _, _, port in published} == {DEFAULT_PORT, 8008}
    cfg = (ROOT / "docker/haproxy-ha/haproxy.cfg").read_text()
    postgres = cfg[cfg.index("listen postgres") : cfg.index("listen patroni")]
    for line in (
        "option httpchk GET /primary",
        "http-check expect status 200",
        "on-marked-down shutdown-sessions",
    ):
        assert line in postgres, line
    for member in ("pg1", "pg2", "pg3"):
        assert f"server {member} {member}:5432 check port 8008" in postgres
    assert f"server-template replica 8 api:{DEFAULT_PORT}" in cfg


@pytest.mark.parametrize(
    "files",
    [
        ["compose.yaml"],
        ["compose.yaml", "compose.local.yaml"],
        ["compose.scale.yaml"],
        ["compose.ha.yaml"],
    ],
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
