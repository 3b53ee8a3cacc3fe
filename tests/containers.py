"""The Docker engine and the local images (``make images``) as the tests see them.

No image registry is reachable from these machines, so every container a test starts comes from
an image built here. Containers are reached only through ports published on 127.0.0.1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

import pytest

POSTGRES_IMAGE = os.environ.get("CUCCU_TEST_POSTGRES_IMAGE", "cuccu/postgres:local")
SERVICE_IMAGE = "cuccu/service:local"
HAPROXY_IMAGE = "cuccu/haproxy:local"
LOCAL_IMAGES = (POSTGRES_IMAGE, SERVICE_IMAGE, HAPROXY_IMAGE)
# the highly available stack's (compose.ha.yaml): needed only by tests/deploy/test_ha.py, so
# that the other container tests never wait for them
PATRONI_IMAGE = "cuccu/patroni:local"
HAPROXY_HA_IMAGE = "cuccu/haproxy-ha:local"
HA_IMAGES = (SERVICE_IMAGE, PATRONI_IMAGE, HAPROXY_HA_IMAGE)

# Ryuk, testcontainers' reaper, is an image from a registry: the fixtures stop what they start.
os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")


def containers_required() -> bool:
    """Under CI=true the container tests must run (issue 12), unless explicitly turned off with
    CUCCU_CONTAINERS=off on a CI host that has no Docker engine at all."""
    return os.environ.get("CI", "").lower() == "true" and os.environ.get(
        "CUCCU_CONTAINERS", ""
    ).lower() not in ("off", "0", "false")


def docker_client(timeout: float = 2) -> Any:
    """A docker SDK client whose engine answered a ping, or None."""
    try:
        import docker  # type: ignore[import-untyped]
    except ImportError:
        return None
    try:
        client = docker.from_env(timeout=timeout)
        if client.ping():
            return client
        client.close()
    except Exception:
        pass
    return None


def docker_answers() -> bool:
    client = docker_client()
    if client is None:
        return False
    client.close()
    return True


def missing_images(images: tuple[str, ...] = LOCAL_IMAGES) -> list[str]:
    """The images of ``images`` the engine does not hold (never pulls: there is no registry)."""
    client = docker_client()
    if client is None:
        return list(images)
    try:
        missing = []
        for image in images:
            try:
                client.images.get(image)
            except Exception:
                missing.append(image)
        return missing
    finally:
        client.close()


def need_engine(*images: str) -> None:
    """Skip the calling test without a Docker engine or without ``images``; fail under CI."""
    if not docker_answers():
        why = "no Docker engine answers (start it as root: dockerd &)"
    else:
        missing = missing_images(images)
        if not missing:
            return
        why = f"the local images {', '.join(missing)} are not built (run `make images`)"
    if containers_required():
        pytest.fail(f"CI=true and the container tests are required, but {why}. "
                    "CUCCU_CONTAINERS=off skips them on a CI host without Docker.")  # fmt: skip
    pytest.skip(why)


@dataclass
class PostgresInContainer:
    """A testcontainers-managed PostgreSQL of the local image, published on 127.0.0.1."""

    container: Any
    url: str  # postgresql://user:password@127.0.0.1:PORT/db, no driver

    def stop(self) -> None:
        self.container.stop()


def start_postgres(
    image: str = POSTGRES_IMAGE, user: str = "test", password: str = "test", db: str = "test"
) -> PostgresInContainer:
    """Start ``image`` with testcontainers and wait until it accepts connections.

    Raises when the engine lacks the image (it is never pulled) or the container does not start.
    """
    from testcontainers.community.postgres import PostgresContainer

    client = docker_client()
    if client is None:
        raise RuntimeError("no Docker engine answers")
    try:
        client.images.get(image)  # raises ImageNotFound: no pull attempt against a registry
    finally:
        client.close()
    pg = PostgresContainer(image, username=user, password=password, dbname=db, driver=None)
    # loopback only: the docker SDK reads ("127.0.0.1",) as "that address, any free port"
    pg.ports = {"5432": ("127.0.0.1",)}
    pg.start()
    try:
        url = pg.get_connection_url(host="127.0.0.1")
    except Exception:
        pg.stop()
        raise
    return PostgresInContainer(pg, url)


def compose_exe() -> list[str] | None:
    """The compose client: Debian's ``docker-compose`` (1.29), else ``docker compose`` (v2)."""
    exe = shutil.which("docker-compose")
    if exe:
        return [exe]
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return [docker, "compose"]
    return None
