"""A Redis Cluster master killed mid-play (SIGKILL: nothing flushed, nothing handed over): the
tables on the other masters play on, those on the failed one go on once its replica is
promoted, their sockets catch up, nothing acknowledged is lost (``MEJA_REDIS_WAIT_REPLICAS``)
and the chips still balance (docs/operations/cluster.md "Failover")."""

from __future__ import annotations

import asyncio

from redis.exceptions import RedisError
from websockets.exceptions import ConnectionClosed

from app.services import money
from tests.cluster import LocalCluster
from tests.services.helpers import humans, play_turn, table_with
from tests.ws.client import SeatClient

PER_NODE = 2


async def test_a_master_killed_mid_play_loses_nothing_acknowledged(live_server, tmp_path):
    folder = tmp_path / "cluster"
    folder.mkdir()
    cluster = LocalCluster(folder).start()
    try:
        srv = await live_server(
            redis_url=cluster.url,
            redis_mode="cluster",
            redis_wait_replicas=1,
            redis_wait_ms=1000,
            seeds=lambda t, m: 700 + m,
            starting_balance=100_000,
            limit_sit_player="",
            limit_sit_address="",
        )
        await _play_through_a_failover(srv, cluster)
    finally:
        cluster.stop()


async def _play_through_a_failover(srv, cluster: LocalCluster) -> None:
    redis, keys = srv.live.redis, srv.live.keys
    (a, _), (b, _) = await humans(srv, 2)  # the same two at every table
    by_node: dict[str, list[str]] = {}
    while min((len(v) for v in by_node.values()), default=0) < PER_NODE or len(by_node) < 3:
        tid = await table_with(srv, "gaple", [a, b], options={"stake": 10}, buy_in=400)
        by_node.setdefault(redis.get_node_from_key(keys.table(tid)).name, []).append(tid)
    tables = [t for tids in by_node.values() for t in tids[:PER_NODE]]
    victim_name = sorted(by_node)[0]
    victim = int(victim_name.rsplit(":", 1)[1])
    doomed = by_node[victim_name][0]
    watcher = await SeatClient(srv.ws_url, doomed, None).connect()
    acked: dict[str, int] = {}

    async def play(tid: str, turns: int) -> None:
        for _ in range(turns):
            try:
                ack = await play_turn(srv, tid)
            except RedisError:  # the table's node is down: not acknowledged, try again
                await asyncio.sleep(0.2)
                continue
            if ack is None:
                await asyncio.sleep(0.01)
            elif ack["type"] == "ack":
                acked[tid] = max(acked.get(tid, 0), ack["v"])

    async def dealt_after(tid: str, match_no: int) -> None:
        """Play the table until a match (a Gaple round, G-12) after ``match_no`` is dealt."""
        while True:
            await play(tid, 20)
            try:
                if (await srv.live.store.load(tid)).doc["match_no"] > match_no:
                    return
            except RedisError:
                await asyncio.sleep(0.2)

    await asyncio.gather(*(play(t, 20) for t in tables))
    before = {t: (await srv.live.store.load(t)).doc["match_no"] for t in tables}
    cluster.kill(victim)  # mid-play: the other tables keep playing meanwhile
    others = [t for t in tables if t not in by_node[victim_name]]
    # the tables elsewhere play on and deal their next round. Bounded in time, not in turns:
    # until the promotion, when the dead node is redis-py's default node, its cluster client
    # refuses some commands for the other nodes too while it re-reads the slots
    # (docs/operations/cluster.md "Failover"; with redis_wait_replicas a move is one of its
    # pipelines), and a next round whose local clock it refused waits for the sweeper, which backs
    # off while Redis fails (app/store/clocks.py)
    async with asyncio.timeout(60):
        await asyncio.gather(*(dealt_after(t, before[t]) for t in others))

    # on the promoted replica, which has no replica of its own, each write waits out
    # redis_wait_ms before it is refused as not replicated (and applied all the same): a round
    # there takes a second a move, longer on a busy CI machine
    async with asyncio.timeout(180):
        await asyncio.gather(*(dealt_after(t, before[t] + 1) for t in tables))
    for tid in tables:  # nothing acknowledged was lost
        assert (await srv.live.store.load(tid)).v >= acked[tid], tid
    final = (await srv.live.store.load(doomed)).v
    try:  # the socket catches up; one that dropped meanwhile reconnects, as the page does
        await watcher.until(lambda m: m["type"] == "state" and m["v"] >= final, timeout=30)
    except ConnectionClosed:  # (its table's channel was left with it, and joined again now)
        watcher = await SeatClient(srv.ws_url, doomed, None).connect()
        await watcher.until(lambda m: m["type"] == "state" and m["v"] >= final, timeout=30)
    # the hub has the doomed table's channel subscribed on the promoted replica
    assert srv.live.hub._channels.where.get(keys.channel(doomed)) not in (None, victim_name)
    await watcher.close()

    async with asyncio.timeout(60):
        while await srv.live.outbox.backlog():
            await asyncio.sleep(0.2)
    audit = await money.audit(srv.live.db)
    assert audit["ok"], audit
