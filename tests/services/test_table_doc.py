"""The pure table-document transitions (no Redis): who is dealt in, stacks, clocks, leaving."""

from __future__ import annotations

import orjson

from app.games import registry
from app.services.table import doc as D

GAPLE = registry.get_ruleset("gaple")
CROSS = registry.get_ruleset("cross")
PAUSES = {"bot_delay": 0.5, "round_pause": 4}


def doc_for(rs, n: int, **options):
    return D.new_doc(rs, "t", n, rs.parse_options(options, n), 20, 0)


def human(i: int, stack=None):
    return D.make_seat(i, f"P{i}", bot=False, stack=stack, sit=1)


def bot(i: int, stack=None):
    return D.make_seat(f"bot:{i}", f"Bot {i}", bot=True, stack=stack, sit=1)


def test_a_match_game_starts_only_with_every_seat_taken_and_a_human_there():
    doc = doc_for(CROSS, 3)
    assert not doc["chips"] and doc["stake"] is None
    doc["seats"] = [human(0), bot(1), None]
    assert D.dealable(doc) is None
    doc["seats"][2] = bot(2)
    assert D.dealable(doc) == [0, 1, 2]
    doc["seats"][0]["away"] = True
    assert D.dealable(doc) is None  # nobody really there
    doc["seats"][0] = bot(0)
    assert D.dealable(doc) is None


def test_g12_g11_a_chips_round_deals_to_those_holding_a_stake():
    doc = doc_for(GAPLE, 4, stake=10)
    assert doc["chips"] and doc["stake"] == 10 and "stacks" not in doc["options"]
    doc["seats"] = [human(0, 100), None, human(2, 5), bot(3, 50)]
    assert D.dealable(doc) == [0, 3]
    ch = D.begin(doc)
    doc["result"] = {"winner_seat": 3}
    D.deal(ch, GAPLE, 7, [0, 3], 2)
    assert ch.doc["match_options"]["stacks"] == [100, 50]
    assert ch.doc["match_options"]["previous_winner"] is None  # result was not in the copy
    assert ch.doc["players"] == [0, 3] and ch.doc["status"] == "playing"
    assert D.game_seat(ch.doc, 3) == 1 and D.game_seat(ch.doc, 2) is None


def test_previous_winner_is_given_in_game_seats():
    doc = doc_for(GAPLE, 3, stake=10, opener="previous_winner")
    doc["seats"] = [human(0, 100), human(1, 100), human(2, 100)]
    doc["status"], doc["result"] = "over", {"winner_seat": 2}
    ch = D.begin(doc)
    D.deal(ch, GAPLE, 7, [1, 2], 5)
    assert ch.doc["match_options"]["previous_winner"] == 1
    assert GAPLE.to_act(ch.state) == 1


def test_a_finished_round_moves_the_stacks_and_frees_leaving_and_busted_seats():
    doc = doc_for(GAPLE, 2, stake=10)
    doc["seats"] = [human(0, 10), bot(1, 10)]
    ch = D.begin(doc)
    D.deal(ch, GAPLE, 3, [0, 1], 2)
    ch.doc["seats"][0]["leaving"] = True
    while ch.doc["status"] == "playing":
        seat = GAPLE.to_act(ch.state)
        D.play(ch, GAPLE, seat, GAPLE.legal_actions(ch.state, seat)[0], "player", 3)
    stacks = GAPLE.outcome(ch.state).detail["stacks"]
    assert sum(stacks) == 20
    gone = {n for n, _ in ch.vacated}
    assert 0 in gone  # left during the round: freed at its end
    assert (1 in gone) == (stacks[1] < 10)  # a bot that cannot cover a stake leaves
    assert [e["type"] for e in ch.events].count("table_over") == 1


def test_o3_clocks_by_who_is_to_act():
    doc = doc_for(CROSS, 2)
    doc["seats"] = [human(0), bot(1)]
    ch = D.begin(doc)
    D.deal(ch, CROSS, 11, [0, 1], 2)
    n = ch.doc["players"][CROSS.to_act(ch.state)]
    clock = D.next_clock(ch.doc, CROSS, ch.state, 1000, 2, bot_delay=0.5, round_pause=4)
    if n == 0:
        assert clock == {"kind": "turn", "at": 21_000, "seat": 0, "v": 2}
    else:
        assert clock == {"kind": "bot", "at": 1500, "seat": 1, "v": 2}
    ch.doc["status"] = "over"
    assert D.next_clock(ch.doc, CROSS, ch.state, 1000, 2, bot_delay=0.5, round_pause=4) is None


def test_o5_two_ready_start_a_countdown_a_sit_restarts_it_a_full_table_deals_at_once():
    doc = D.new_doc(GAPLE, "t", 4, GAPLE.parse_options({"stake": 10}, 4), 20, 0, 5)
    doc["seats"] = [human(0, 100), None, None, None]
    assert not D.deal_at_once(doc) and D.next_clock(doc, GAPLE, None, 0, 2, **PAUSES) is None
    doc["seats"][1] = human(1, 100)
    assert not D.deal_at_once(doc)  # two of four: wait
    doc["clock"] = D.next_clock(doc, GAPLE, None, 1000, 3, **PAUSES)
    assert doc["clock"] == {"kind": "start", "at": 6000, "seat": None, "v": 3}
    kept = D.next_clock(doc, GAPLE, None, 4000, 4, **PAUSES)  # not a sit: the time is kept
    assert kept == {"kind": "start", "at": 6000, "seat": None, "v": 4}
    doc["seats"][2] = human(2, 100)
    D.restart_countdown(doc)  # a sit
    assert D.next_clock(doc, GAPLE, None, 4000, 5, **PAUSES)["at"] == 9000
    doc["seats"][3] = bot(3, 100)
    assert D.deal_at_once(doc)  # every seat ready
    doc["pause"] = {"until": 9000, "ready": []}  # a round just ended: its pause runs (O-6)
    assert not D.deal_at_once(doc)
    paused = D.next_clock(doc, GAPLE, None, 4000, 6, **PAUSES)
    assert paused == {"kind": "next", "at": 9000, "seat": None, "v": 6}


def test_the_sealed_state_is_written_and_read_back_as_the_rules_dump_it():
    doc = doc_for(GAPLE, 2, stake=10)
    doc["seats"] = [human(0, 100), human(1, 100)]
    ch = D.begin(doc)
    D.deal(ch, GAPLE, 7, [0, 1], 2)
    assert D.state_json(ch.doc) is None  # not sealed yet: the document still has no state
    D.seal(ch)
    dumped = GAPLE.dump(ch.state)
    assert D.state_json(ch.doc) == dumped  # as cached in this process
    stored = orjson.loads(orjson.dumps(ch.doc))  # as written to Redis and loaded elsewhere
    assert stored["state"] == dumped and D.state_json(stored) == dumped
    assert GAPLE.load(D.state_json(stored)) == ch.state


def test_g6_closing_mid_round_returns_the_stacks_with_the_lewat_payments_made_in_it():
    """A Lewat payment is written to the ledger as it happens (the outbox): an operator who
    closes the table before the round ends must cash out the chips the round's state holds,
    or the ledger's stack accounts go negative and chips appear from nowhere."""
    for seed in range(50):  # the first deal in which a Lewat is paid before the round ends
        doc = doc_for(GAPLE, 4, stake=10)
        doc["seats"] = [human(0, 300), bot(1, 300), bot(2, 300), bot(3, 300)]
        ch = D.begin(doc)
        D.deal(ch, GAPLE, seed, [0, 1, 2, 3], 2)
        while ch.doc["status"] == "playing" and "lewat" not in [e["type"] for e in ch.events]:
            seat = GAPLE.to_act(ch.state)
            D.play(ch, GAPLE, seat, GAPLE.legal_actions(ch.state, seat)[0], "player", 3)
        if ch.doc["status"] == "playing":
            break
    now = list(GAPLE.stacks(ch.state))
    assert now != [300] * 4 and sum(now) == 1200  # a Lewat moved chips, none were made
    D.close(ch)
    assert [seat["stack"] for _, seat in sorted(ch.vacated)] == now
    assert ch.doc["status"] == "closed"
