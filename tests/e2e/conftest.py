"""Browser tests: a real server in a subprocess and the system Chromium (Debian's package).

The browser is never downloaded: Playwright drives /usr/bin/chromium (override with
MEJA_CHROMIUM). When it is missing the tests fail rather than skip, so CI cannot pass without
them. Screenshots go to tests/e2e/artifacts/ (ignored by git) for a person to look at.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MEJA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server_database(tmp_path_factory):
    """The URL of the server's database, for tests that write records into it."""
    url, drop = fresh_database(tmp_path_factory.mktemp("e2e-db"))
    yield url
    drop()


@pytest.fixture(scope="session")
def server(tmp_path_factory, server_database):
    """The base URL of a live Meja server (fast bots, fixed seeds). Every page signs up from
    this machine, so the per-address sign-up limit is off."""
    data = tmp_path_factory.mktemp("e2e-server")
    with running_server(data, server_database, MEJA_LIMIT_SIGNUP_ADDRESS="") as url:
        yield url


@contextlib.contextmanager
def running_server(data: Path, database: str | None = None, **settings: str) -> Iterator[str]:
    """A server process of its own (its data in ``data``, ``MEJA_*`` settings on top of the
    e2e ones, on ``database`` or a fresh one of its own); yields its base URL, stops it and
    drops its keys, and the database it made, afterwards."""
    port = _free_port()
    prefix = f"e2e:{uuid.uuid4().hex[:8]}:"
    env = dict(os.environ)
    env.update(
        {
            "MEJA_DATA_DIR": str(data),
            "MEJA_KEY_PREFIX": prefix,
            "MEJA_BOT_DELAY": "0.05",
            "MEJA_ROUND_PAUSE": "15",  # the default (O-6): the result panels as players see them
            "MEJA_SECRET_KEY": "e2e-secret",
            **settings,
        }
    )
    drop_db = None
    if database is None:
        database, drop_db = fresh_database(data)
    env["DATABASE_URL"] = database
    with open(data / "server.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.serve", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a loaded machine starts it slowly
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the server did not start:\n{(data / 'server.log').read_text()}")
            time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if drop_db is not None:
            drop_db()
        drop_keys(prefix)


def drop_keys(prefix: str) -> None:
    """Delete this run's keys from a shared Redis (the embedded one goes with its data dir)."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    from redis import Redis

    client = Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}*", count=500))
    for i in range(0, len(keys), 500):
        client.delete(*keys[i : i + 500])
    client.close()


def fresh_database(data: Path):
    """(url, drop): a new migrated Postgres schema when DATABASE_URL names Postgres (CI),
    else a SQLite file that the server migrates itself."""
    pg = os.environ.get("DATABASE_URL") or ""
    if not pg.startswith("postgres"):
        return f"sqlite+aiosqlite:///{data}/meja.db", lambda: None
    import asyncio

    from sqlalchemy import text

    from app.db.migrate import upgrade
    from app.db.session import make_engine, normalize_url

    schema = "e2e_" + uuid.uuid4().hex[:10]
    url = normalize_url(pg) + ("&" if "?" in pg else "?") + f"search_path={schema}"

    async def create():
        admin = make_engine(pg)
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        await admin.dispose()
        engine = make_engine(url)
        await upgrade(engine)
        await engine.dispose()

    async def drop():
        admin = make_engine(pg)
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()

    def run(coro_fn):  # in a thread: Playwright's sync API may own this thread's loop
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, coro_fn()).result()

    run(create)
    return url, lambda: run(drop)


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the e2e package. Package scope, not session: Playwright's sync API runs
    an event loop in this thread while it is open, which would break every asyncio test that
    pytest runs after tests/e2e."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# The lobby as a player first sees it whole: its games, the stake rooms, the friends and the
# missions read. Those arrive one after another above the join form and the tables, so a click
# made before the last of them lands where the button no longer is (seen under load in CI).
LOBBY_SETTLED = """() => {
  const q = (s) => document.querySelector(s);
  const friends = q('.friends-card .friend-list')
    || [...document.querySelectorAll('.friends-card p.muted')].some((p) => p.textContent !== '…');
  return q('.lobby .game-card') && (q('.lobby .rooms') || !q('.lobby .game-gaple'))
    && q('.missions-card .mission-list') && friends;
}"""


@pytest.fixture
def new_page(browser, server):
    """new_page(name=None, viewport=DESKTOP, lang=None) -> a page at the lobby, signed in as a
    new guest ``name``, or without a name at the landing page. The guest is made as the welcome
    form makes it (POST /api/players, its cookies in the page's context) before the page
    loads: the form itself is filled in by ``sign_in`` and in test_words and test_accounts."""
    contexts = []

    def make(name: str | None = None, viewport=DESKTOP, lang: str | None = None):
        ctx = browser.new_context(viewport=viewport)
        if lang:
            ctx.add_init_script(f"localStorage.setItem('meja.lang', '{lang}')")
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        if name:
            made = ctx.request.post(server + "/api/players", data={"name": name})
            assert made.ok, made.text()
        page.goto(server + "/")
        if name:
            page.wait_for_function(LOBBY_SETTLED)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def sign_in(page, name: str) -> None:
    page.fill("input[name=name]", name)
    page.click(".welcome form button[type=submit]")
    page.wait_for_function(LOBBY_SETTLED)


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


# What the page shows, the board's SVG words and the inputs' placeholders included.
VISIBLE_TEXT = """() => {
  const parts = [document.body.innerText];
  for (const e of document.querySelectorAll('svg text, input[placeholder]')) {
    if (e.getClientRects().length) parts.push(e.textContent || e.placeholder || '');
  }
  return parts.join('\\n');
}"""
# English that a server message or an untranslated sentence brings into an Indonesian page.
ENGLISH = re.compile(
    r"\b(error|value|invalid|required|characters|must|allowed|wrong|failed|went|pays?|wins?|"
    r"tiles?|boneyard|game over|round over|your|you|the|and|of|to|is)\b",
    re.IGNORECASE,
)


def assert_words(page, where: str = "") -> None:
    """The page shows no dictionary key without an entry (``⟦key⟧``), and an Indonesian page no
    English word (a server's message, a sentence left untranslated); every test may call it."""
    text = page.evaluate(VISIBLE_TEXT)
    assert "⟦" not in text, f"{where}: a key without a dictionary entry in {text!r}"
    if page.evaluate("document.documentElement.lang") == "id":
        found = sorted({m.lower() for m in ENGLISH.findall(text)})
        assert not found, f"{where}: English on an Indonesian page: {found} in {text!r}"


def screenshots(page, game: str) -> None:
    """Desktop and phone pictures of a table in play, each checked by ``assert_words``; at phone
    size nothing is wider than the screen and the hand is on it without scrolling."""
    assert_words(page, f"{game} desktop")
    shot(page, f"{game}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    assert_words(page, f"{game} phone")
    shot(page, f"{game}-phone")
    wide = page.evaluate("""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .map(e => e.tagName + '.' + (e.getAttribute('class') || ''))""")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide[:8]
    bottom = page.evaluate("document.querySelector('.hand-area')?.getBoundingClientRect().bottom")
    assert bottom is None or bottom <= PHONE["height"] + 1, "the hand is below the fold"
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)
