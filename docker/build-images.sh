#!/usr/bin/env bash
# `make images`: build the local images from Debian's packages and the Python package index,
# without any image registry (see docs/DEPLOY.md).
#
#   cuccu/debian:bookworm  debootstrap --variant=minbase of bookworm from the mirror the apt sources
#                          name, with python3, PostgreSQL 15 and HAProxy: one layer the others share
#   cuccu/postgres:local   PostgreSQL whose entrypoint honours POSTGRES_USER/PASSWORD/DB
#   cuccu/service:local    the project and its pinned requirements, from a wheelhouse built here
#   cuccu/haproxy:local    the load balancer of the scaled-out stack (compose.scale.yaml)
#   cuccu/debian-ha:bookworm  the same base plus Patroni and etcd (the HA stack, compose.ha.yaml)
#   cuccu/patroni:local    PostgreSQL 15 under Patroni, and etcd (compose.ha.yaml)
#   cuccu/haproxy-ha:local HAProxy for compose.ha.yaml: the API replicas, and the Patroni leader
#
# Each step is skipped when its inputs have not changed (a recipe hash in an image label, stamp
# files in build/images), so a second run takes seconds. Needs root (debootstrap) and a Docker engine.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PYTHON="${PYTHON:-python3}"
OUT="$ROOT/build/images"
BASE_IMAGE="cuccu/debian:bookworm"
BASE_PACKAGES="python3,python3-venv,ca-certificates,postgresql-15,haproxy"
# the HA stack's base (compose.ha.yaml): the same plus Patroni and etcd, a second tag so that the
# images above keep their base (and their cache) unchanged
HA_BASE_IMAGE="cuccu/debian-ha:bookworm"
HA_BASE_PACKAGES="$BASE_PACKAGES,patroni,python3-etcd,python3-psycopg2,etcd-server,etcd-client"
BASE_RECIPE_VERSION=1  # bump to force a new debootstrap when the trimming below changes
export DOCKER_BUILDKIT=0  # the engine here is Debian's 20.10 without buildx; the classic builder caches

say() { printf '== %s\n' "$*" >&2; }
hash_of() { sha256sum | cut -c1-16; }
label_of() { docker image inspect --format '{{ index .Config.Labels "cuccu.recipe" }}' "$1" 2>/dev/null || true; }

docker info >/dev/null 2>&1 || { echo "make images: no Docker engine answers (start dockerd as root)" >&2; exit 1; }
mkdir -p "$OUT"

# --- 1. the Debian bases: debootstrap, then `docker import` ---------------------------------------
base_image() {  # base_image TAG PACKAGES: debootstrap bookworm with PACKAGES, imported as TAG
    local tag="$1" packages="$2" recipe rootfs mirror log
    recipe="$(printf '%s\n' "$packages" "$BASE_RECIPE_VERSION" | hash_of)"
    if [ "$(label_of "$tag")" = "$recipe" ]; then
        say "$tag is up to date"
        return
    fi
    command -v debootstrap >/dev/null || { echo "make images: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
    mirror="$(docker/debian-mirror.sh bookworm)"
    say "debootstrap bookworm for $tag from the mirror in this machine's apt sources"
    log="$OUT/debootstrap-${tag//[:\/]/-}.log"
    rootfs="$(mktemp -d "$OUT/rootfs.XXXXXX")"
    trap 'rm -rf "$rootfs"' EXIT
    mkdir -p "$OUT/debs"  # the downloaded .debs, kept so that a rebuild does not fetch them again
    debootstrap --variant=minbase --include="$packages" --cache-dir="$OUT/debs" \
        bookworm "$rootfs" "$mirror" >"$log" 2>&1 \
        || { tail -n 30 "$log" >&2; exit 1; }
    # Trim what a container never needs; the package's default cluster is replaced by the
    # entrypoint's own data directory (or Patroni's).
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
           "$rootfs"/var/lib/postgresql/15 "$rootfs"/etc/postgresql/15 \
           "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
    tar -C "$rootfs" -c . | docker import \
        --change "LABEL cuccu.recipe=$recipe" \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV LANG=C.UTF-8' \
        --change 'CMD ["/bin/bash"]' \
        - "$tag" >/dev/null
    rm -rf "$rootfs"; trap - EXIT
    say "imported $tag"
}
base_image "$BASE_IMAGE" "$BASE_PACKAGES"
base_image "$HA_BASE_IMAGE" "$HA_BASE_PACKAGES"

# --- 2. the wheelhouse, built on the host (containers do not trust the host's proxy CA) -----------
ctx="$OUT/service"
mkdir -p "$ctx/deps" "$ctx/app" "$ctx/src"
deps_recipe="$(cat requirements.txt | hash_of)"
if [ "$(cat "$ctx/deps/.recipe" 2>/dev/null)" != "$deps_recipe" ]; then
    say "pip wheel -r requirements.txt"
    rm -rf "$ctx/deps"; mkdir -p "$ctx/deps"
    "$PYTHON" -m pip wheel --quiet --wheel-dir "$ctx/deps" -r requirements.txt \
        >"$OUT/pip-wheel.log" 2>&1 || { tail -n 30 "$OUT/pip-wheel.log" >&2; exit 1; }
    cp requirements.txt "$ctx/deps/requirements.txt"
    echo "$deps_recipe" >"$ctx/deps/.recipe"
else
    say "wheelhouse for requirements.txt is up to date"
fi
sources=(pyproject.toml README.md alembic.ini domain api viewer migrations)
# the committed tree's hashes; a dirty or untracked file (or no git) means "rebuild"
app_recipe="$(git ls-files -s -- "${sources[@]}" 2>/dev/null | hash_of)"
if ! git rev-parse --git-dir >/dev/null 2>&1 || [ -n "$(git status --porcelain -- "${sources[@]}")" ]; then
    app_recipe="$app_recipe-$(date +%s%N)"
fi
if [ "$(cat "$ctx/app/.recipe" 2>/dev/null)" != "$app_recipe" ]; then
    say "pip wheel the project"
    rm -rf "$ctx/app" "$ctx/src"; mkdir -p "$ctx/app" "$ctx/src"
    "$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir "$ctx/app" . \
        >"$OUT/pip-wheel.log" 2>&1 || { tail -n 30 "$OUT/pip-wheel.log" >&2; exit 1; }
    rm -rf build/lib build/bdist.*  # setuptools builds in the tree
    # The source tree too, laid out as the official Dockerfile lays out /app (the viewer runs
    # `streamlit run viewer/app.py` from there).
    tar -c --exclude=__pycache__ "${sources[@]}" | tar -x -C "$ctx/src"
    echo "$app_recipe" >"$ctx/app/.recipe"
else
    say "project wheel is up to date"
fi

# --- 3. the images FROM the base (the classic builder's layer cache makes reruns take seconds) ----
build() {  # build TAG DOCKERFILE CONTEXT [BASE]
    say "docker build $1"
    local log="$OUT/build-${1//[:\/]/-}.log"
    docker build --build-arg "BASE_IMAGE=${4:-$BASE_IMAGE}" -t "$1" -f "$2" "$3" >"$log" 2>&1 \
        || { tail -n 30 "$log" >&2; exit 1; }
}
build cuccu/postgres:local docker/postgres/Dockerfile docker/postgres
build cuccu/haproxy:local docker/haproxy/Dockerfile docker/haproxy
build cuccu/service:local docker/service/Dockerfile "$ctx"
build cuccu/patroni:local docker/patroni/Dockerfile docker/patroni "$HA_BASE_IMAGE"
build cuccu/haproxy-ha:local docker/haproxy-ha/Dockerfile docker/haproxy-ha "$HA_BASE_IMAGE"
docker image prune --force --filter "label=cuccu.image" >/dev/null  # superseded builds
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep '^cuccu/' >&2
