"""The unchanged browser client plays a table on Redis Cluster (docs/operations/cluster.md): a
server in ``MEJA_REDIS_MODE=cluster`` on a real cluster of 3 masters and 3 replicas (CI's, or
one this test starts), a Gaple round against bots played to its result by clicking, with the
lobby, the socket, the turn clocks and the chips all on the cluster."""

from __future__ import annotations

import os

import pytest

from tests.cluster import LocalCluster

from .conftest import DESKTOP, running_server, screenshots, sign_in
from .play import RESULT, open_vs_bots, play_until

pytestmark = pytest.mark.e2e


@pytest.fixture
def cluster_url(tmp_path):
    url = os.environ.get("REDIS_CLUSTER_URL")
    if url:
        yield url
        return
    folder = tmp_path / "cluster"
    folder.mkdir()
    cluster = LocalCluster(folder).start()
    yield cluster.url
    cluster.stop()


def test_a_gaple_round_plays_in_the_browser_on_redis_cluster(browser, tmp_path, cluster_url):
    data = tmp_path / "server"
    data.mkdir()
    settings = {"MEJA_REDIS_MODE": "cluster", "REDIS_URL": cluster_url}
    with running_server(data, MEJA_LIMIT_SIGNUP_ADDRESS="", **settings) as base:
        ctx = browser.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        sign_in(page, "Klaster")
        tid = open_vs_bots(page, "gaple")
        lobby = page.evaluate("fetch('/api/players/me/tables').then(r => r.json())")
        assert [t["id"] for t in lobby["items"]] == [tid]  # the player's tables, on the cluster
        play_until([page], lambda: page.locator(RESULT).count() > 0, timeout=150)
        panel = page.locator(RESULT)
        assert panel.locator("text=Pembayaran").count() == 1  # the round's payments
        screenshots(page, "cluster-gaple")
        assert errors == []
        ctx.close()
