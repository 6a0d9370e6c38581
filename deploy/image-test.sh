#!/usr/bin/env bash
# make image-test: the Dockerfile, unchanged, built and run on a machine with no Docker daemon
# and no container registry (docs/operations/deploy.md "How the image is tested"):
#   1. a stand-in for the base image it names, made from Debian bookworm's own packages
#      (mmdebstrap), cached between runs under $MEJA_IMAGE_CACHE;
#   2. the Dockerfile built on it by buildah; the image's size and history reported;
#   3. tests/image run against the image with podman: the container alone, then compose's stack.
# Root, as CI; Debian's mirror and PyPI must answer. Every container, the private Redis and the
# container storage (a temp dir) are removed on exit, failed or not.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${MEJA_IMAGE_CACHE:-/var/cache/meja-image-test}
PY=.venv/bin/python
TAG=localhost/meja:image-test
STAND_IN_FOR=python:3.11-slim-bookworm
# The versions the official 3.11 image installs (docker-library/python: pip from 3.11's
# ensurepip, then 'setuptools==79.0.1' 'wheel<0.46'); the runtime stage uninstalls them.
WHEELS=(pip==24.0 setuptools==79.0.1 wheel==0.45.1)
# Debian 12's python3.11 with what the official image adds on Debian slim (its "runtime
# dependencies"), and python3.11-venv for the build stage's `python -m venv` (ensurepip).
PACKAGES=ca-certificates,netbase,tzdata,python3.11,python3.11-venv
SOURCES=/etc/apt/sources.list.d/debian.sources

# Every stage must start FROM the one image the stand-in replaces (a stage named after an
# earlier one is not an image).
stages=$(awk 'toupper($1) == "FROM" && toupper($3) == "AS" {print $4}' Dockerfile)
bases=$(awk 'toupper($1) == "FROM" {print $2}' Dockerfile | grep -vxF "$stages" | sort -u || true)
if [ "$bases" != "$STAND_IN_FOR" ]; then
  echo "image-test: the Dockerfile builds FROM '$bases'; the stand-in is $STAND_IN_FOR" >&2
  exit 1
fi
BASE=docker.io/library/$STAND_IN_FOR   # how FROM resolves it (Docker Hub's official images)

WORK=$(mktemp -d /var/tmp/meja-image-test.XXXXXX)   # ~1.5 GB at peak: vfs layers are copies
STORE=(--root "$WORK/storage" --runroot "$WORK/run" --storage-driver vfs)
# runc with cgroupfs: crun refuses this machine's hybrid cgroup v1/v2 layout and there is no
# systemd to manage cgroups.
PODMAN=(podman "${STORE[@]}" --runtime runc --cgroup-manager cgroupfs)
TIMES=()
redis_pid=""

cleanup() {
  set +e
  [ -n "$redis_pid" ] && kill "$redis_pid" && wait "$redis_pid" 2>/dev/null
  "${PODMAN[@]}" rm --all --force --time 5 >/dev/null 2>&1   # what a failed test left running
  buildah "${STORE[@]}" rm --all >/dev/null 2>&1
  # A container killed mid-run can leave its /dev/shm mounted inside WORK: rm would fail on it.
  findmnt -rn -o TARGET | grep "^$WORK/" | sort -r | xargs -r umount 2>/dev/null
  rm -rf "$WORK"
  # conmon's cgroups (cgroupfs manager) outlive the containers; rmdir removes only empty ones.
  rmdir /sys/fs/cgroup/*/libpod_parent/conmon /sys/fs/cgroup/*/libpod_parent 2>/dev/null
  printf '%s\n' "${TIMES[@]}" "total ${SECONDS}s" >&2
  return 0
}
trap cleanup EXIT

step() {  # step NAME COMMAND...: runs it and keeps its time for the summary
  local name=$1 t0=$SECONDS
  shift
  echo "== $name" >&2
  "$@"
  TIMES+=("$name $((SECONDS - t0))s")
}

# --- 1. the stand-in base ------------------------------------------------------------------
# Debian's minbase, slimmed as Debian's container images are (no docs, man pages or locales),
# laid out where the official image has its Python: /usr/local/bin/python3.11, python3 and
# python; pip, setuptools and wheel installed under /usr/local, not by Debian, so that the
# runtime stage's `python -m pip uninstall` has them to remove; no EXTERNALLY-MANAGED marker
# (the official image has none, and it would refuse that uninstall).
make_base() {  # make_base TARBALL: the root filesystem, and its Python's version beside it
  local out=$1 wheels=$WORK/wheels
  "$PY" -m pip download -q --no-deps --only-binary=:all: -d "$wheels" "${WHEELS[@]}"
  mmdebstrap --quiet --variant=minbase --include="$PACKAGES" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="cp -r '$wheels' \"\$1/tmp/wheels\"" \
    --customize-hook='rm -f "$1"/usr/lib/python3.11/EXTERNALLY-MANAGED' \
    --customize-hook='cd "$1/usr/local/bin" && ln -s /usr/bin/python3.11 python3.11 && ln -s python3.11 python3 && ln -s python3 python' \
    --customize-hook="chroot \"\$1\" env -i /usr/local/bin/python /tmp/wheels/$(cd "$wheels" && ls pip-*.whl)/pip install -q --root-user-action=ignore --no-cache-dir --no-index --no-compile --find-links /tmp/wheels ${WHEELS[*]}" \
    --customize-hook="chroot \"\$1\" /usr/local/bin/python -c 'import platform; print(platform.python_version())' > '$out.pyver'" \
    --customize-hook='rm -rf "$1/tmp/wheels"' \
    bookworm "$out" "$SOURCES"
}

# The cache key: every package and version mmdebstrap would install today, the wheels, and
# make_base itself. A Debian security update or a change above builds a new base; otherwise
# the tarball of an earlier run is reused (a minute saved per run).
base_key() {
  local pkgs
  pkgs=$(mmdebstrap --verbose --simulate --variant=minbase --include="$PACKAGES" bookworm \
    /dev/null "$SOURCES" 2>&1 | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p' | sort)
  [ -n "$pkgs" ] || { echo "image-test: mmdebstrap --simulate listed no package" >&2; return 1; }
  { echo "$pkgs"; echo "${WHEELS[*]}"; declare -f make_base; } | sha256sum | cut -c1-16
}

base_tarball() {
  local key
  key=$(base_key)
  BASE_TAR=$CACHE/base-$key.tar
  if [ -s "$BASE_TAR" ] && [ -s "$BASE_TAR.pyver" ]; then
    echo "stand-in base from the cache: $BASE_TAR" >&2
    return
  fi
  mkdir -p "$CACHE"
  make_base "$WORK/base.tar"
  # Older keys' tarballs are of no more use; the rename keeps a concurrent run from reading
  # half a file.
  rm -f "$CACHE"/base-*.tar "$CACHE"/base-*.tar.pyver
  mv "$WORK/base.tar.pyver" "$BASE_TAR.pyver"
  mv "$WORK/base.tar" "$BASE_TAR"
}
step base-tarball base_tarball

import_base() {  # the tarball as an image under the Dockerfile's name, with the official ENV/CMD
  local c
  c=$(buildah "${STORE[@]}" from scratch)
  buildah "${STORE[@]}" add --quiet "$c" "$BASE_TAR" /
  buildah "${STORE[@]}" config \
    --env PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env LANG=C.UTF-8 --env PYTHON_VERSION="$(cat "$BASE_TAR.pyver")" --cmd python3 \
    --label org.meja.stand-in="Debian bookworm python3.11, not the official image" "$c"
  buildah "${STORE[@]}" commit --quiet --format docker --rm "$c" "$BASE" >/dev/null
}
step base-import import_base

# --- 2. the Dockerfile, unchanged ----------------------------------------------------------
# --pull-never: FROM resolves to the stand-in, never a registry. --format docker: an OCI image
# has no HEALTHCHECK. No --layers: the runtime stage is one layer above the base, where Docker
# makes one per RUN and COPY; on vfs every layer is a full copy of the tree, and a layer per
# instruction took the build from 40 s to over 5 minutes. The stage has a single RUN, so no
# file can be added by one step and removed by a later one out of the layer checks' sight.
# pip in the build may download through an intercepting proxy whose CA only this machine
# trusts: the machine's bundle is mounted, for the RUN steps only, over the base's own
# /etc/ssl/certs/ca-certificates.crt, which the build stage's pip reads (the venv's pip is
# Debian's, from ensurepip, patched to use the system bundle). A mount point at a path the base
# lacks (a pip.conf, say) would stay in the layer as an empty file; this one adds nothing
# (tests/image/test_image.py reads every layer). buildah passes the proxy variables, when set,
# to the RUN steps only.
build() {
  buildah "${STORE[@]}" bud --isolation chroot --pull-never --format docker --layers=false \
    --volume /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro \
    --tag "$TAG" --file Dockerfile .
}
step build build

report() {  # the image's size, and its history: the instructions, each layer's size on the last
  local size
  size=$("${PODMAN[@]}" image inspect "$TAG" --format '{{.Size}}')
  echo "image $TAG: $((size / 1000000)) MB ($size bytes), $("${PODMAN[@]}" image inspect "$TAG" \
    --format '{{len .RootFS.Layers}}') layers; its history, newest first:"
  "${PODMAN[@]}" history --human --no-trunc --format '{{.Size}}\t{{.CreatedBy}}' "$TAG" \
    | sed -e 's|/bin/sh -c #(nop) ||' -e 's|/bin/sh -c ||' | cut -c1-150
}
step report report

# --- 3. the tests --------------------------------------------------------------------------
# A Redis of this run's own (the containers share the host's network); the machine's Postgres,
# where each test makes a schema of its own (tests/db/fixtures.py).
redis_port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
  >"$WORK/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done

export MEJA_IMAGE=$TAG MEJA_PODMAN="${PODMAN[*]}"
export REDIS_URL=redis://127.0.0.1:$redis_port/0
export DATABASE_URL=${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test}
step tests "$PY" -m pytest -p no:cacheprovider -v --durations=0 tests/image
