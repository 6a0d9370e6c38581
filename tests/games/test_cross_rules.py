"""Domino Cross rules C-1 .. C-8 and O-2, one test (at least) per docs/rules.md ID, on exact deals.

Short hands set positions up directly (``hands=`` is taken as given); ``stock=`` fixes the top of
the boneyard wherever a draw matters. Scoring and the match (C-9, C-10) are in
test_cross_scoring.py.
"""

from collections import Counter

import pytest

from app.games import tiles as T
from app.games.cross import ARMS, deal_round
from app.games.errors import BadOptions, IllegalAction, NotYourTurn
from app.games.registry import get_ruleset
from app.games.rng import rng_for

RS = get_ruleset("cross")
DRAW = {"kind": "draw"}
PASS = {"kind": "pass"}


def start(hands, stock=None, seed=7, **options):
    return RS.new_state(options, len(hands), seed=seed, hands=hands, stock=stock)


def play(state, *moves):
    """Apply (seat, action-json) moves; returns the final state and all events."""
    events = []
    for seat, action in moves:
        step = RS.apply(state, seat, RS.parse_action(action))
        state = step.state
        events.extend(step.events)
    return state, events


def put(tile, arm=None):
    return {"kind": "play", "tile": tile} | ({"arm": arm} if arm else {})


def legal(state, seat):
    return RS.view(state, seat)["legal"]


def refused(state, seat, action, *words):
    with pytest.raises(IllegalAction) as err:
        RS.apply(state, seat, RS.parse_action(action))
    for word in words:
        assert word in err.value.message
    return err.value.message


def full_cross(state, seats, tiles):
    """Fill the arms n, e, s, w in order with the given tiles played by the given seats."""
    return play(state, *((s, put(t, a)) for s, t, a in zip(seats, tiles, ARMS)))


# --- C-1 players and deal -----------------------------------------------------------------------


@pytest.mark.parametrize("n, each", [(2, 7), (3, 5), (4, 5)])
def test_c1_deal_by_player_count_rest_is_the_boneyard(n, each):
    for seed in range(20):
        state = RS.new_state({}, n, seed=seed)
        assert [len(h) for h in state.hands] == [each] * n
        assert len(state.boneyard) == 28 - each * n
        assert Counter(RS.all_tiles(state)) == Counter(T.DOUBLE_SIX)
        view = RS.view(state, 0)
        assert view["boneyard"] == 28 - each * n and view["hand_counts"] == [each] * n


@pytest.mark.parametrize("bad", [1, 5])
def test_c1_two_to_four_players(bad):
    with pytest.raises(BadOptions):
        RS.new_state({}, bad, seed=1)


def test_c1_options_are_validated():
    with pytest.raises(BadOptions, match="target"):
        RS.new_state({"target": 0}, 2, seed=1)
    with pytest.raises(BadOptions, match="draw_until_playable"):
        RS.new_state({"draw_until_playable": "yes"}, 2, seed=1)
    with pytest.raises(BadOptions, match="stake"):
        RS.new_state({"stake": 5}, 2, seed=1)
    assert RS.new_state({}, 2, seed=1).options == {"target": 100, "draw_until_playable": False}


# --- C-2 opening --------------------------------------------------------------------------------


def test_c2_highest_double_opens_and_must_be_played_first():
    hands = [[[4, 4], [0, 5], [1, 2]], [[3, 3], [0, 1]], [[5, 5], [2, 5], [0, 0]]]
    state = start(hands)
    assert RS.to_act(state) == 2 and state.opener == 2
    assert legal(state, 2) == [{"kind": "play", "tile": [5, 5]}]
    refused(state, 2, put([0, 0]), "highest double", "[5, 5]")
    refused(state, 2, put([2, 5], "n"), "highest double")
    refused(state, 2, DRAW, "highest double")
    with pytest.raises(NotYourTurn):
        RS.apply(state, 0, RS.parse_action(put([4, 4])))
    state, events = play(state, (2, put([5, 5])))
    assert events == [{"type": "played", "seat": 2, "tile": [5, 5]}]
    assert RS.view(state, None)["cross"]["spinner"] == {"tile": [5, 5]}


def test_c2_redeal_when_nobody_holds_a_double():
    hands = [
        [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [1, 2]],
        [[1, 3], [1, 4], [1, 5], [1, 6], [2, 3], [2, 4], [2, 5]],
    ]
    state = start(hands, seed=11)
    assert state.redeal_no >= 1
    assert deal_round(2, 11, 1, hands)[2] == state.redeal_no
    # the redeal is the seeded deal of (round 1, redeal n), not the given hands
    again, rest = T.deal(T.DOUBLE_SIX, [7, 7], rng_for(11, "deal", 1, state.redeal_no))
    assert state.hands == again and state.boneyard == rest
    assert state.hands != tuple(T.sort_hand(T.tile(*t) for t in h) for h in hands)
    opener = state.opener
    top = max(t for h in state.hands for t in h if T.is_double(t))
    assert top in state.hands[opener] and legal(state, opener) == [put(list(top))]


def test_c2_seeded_deals_without_a_double_are_redealt():
    # find seeds whose first deal has no double, and check they were redealt
    redealt = [s for s in range(3000) if RS.new_state({}, 2, seed=s).redeal_no]
    assert redealt, "some 2-player deal out of 3000 has no double"
    for seed in redealt[:5]:
        first, _ = T.deal(T.DOUBLE_SIX, [7, 7], rng_for(seed, "deal", 1, 0))
        assert not any(T.is_double(t) for h in first for t in h)
        assert deal_round(2, seed, 1)[2] == RS.new_state({}, 2, seed=seed).redeal_no


def test_c2_highest_double_opens_every_round():
    rounds = 0
    for n in (2, 3, 4):
        for seed in range(15):
            state = RS.new_state({"target": 60}, n, seed=seed)
            while RS.to_act(state) is not None:
                if state.spinner is None:
                    rounds += 1
                    top = max(t for h in state.hands for t in h if T.is_double(t))
                    assert top in state.hands[state.opener]
                    assert RS.to_act(state) == state.opener
                    assert legal(state, state.opener) == [put(list(top))]
                seat = RS.to_act(state)
                state = RS.apply(state, seat, RS.legal_actions(state, seat)[0]).state
    assert rounds > 100


# --- C-3 turns ----------------------------------------------------------------------------------


def test_c3_turns_pass_clockwise_from_the_opener():
    hands = [[[6, 0], [0, 0]], [[6, 1], [1, 1]], [[6, 6], [2, 2], [2, 3]], [[6, 3], [3, 3]]]
    state = start(hands)
    seen = []
    for tile, arm in [([6, 6], None), ([6, 3], "n"), ([6, 0], "e"), ([6, 1], "s")]:
        seen.append(RS.to_act(state))
        state, _ = play(state, (seen[-1], put(tile, arm)))
    assert seen == [2, 3, 0, 1] and RS.to_act(state) == 2


def test_c3_next_seat_after_each_turn():
    hands = [[[6, 6], [6, 5], [0, 0]], [[6, 1], [1, 1]], [[6, 2], [2, 2]], [[6, 3], [3, 3]]]
    state = start(hands)
    seen = []
    for seat, tile, arm in [
        (0, [6, 6], None),
        (1, [6, 1], "n"),
        (2, [6, 2], "e"),
        (3, [6, 3], "s"),
        (0, [6, 5], "w"),
    ]:
        seen.append(RS.to_act(state))
        state, _ = play(state, (seat, put(tile, arm)))
    assert seen == [0, 1, 2, 3, 0] and RS.to_act(state) == 1


# --- C-4 the cross ------------------------------------------------------------------------------


def test_c4_cross_phase_only_empty_sides_of_the_spinner():
    hands = [[[6, 6], [5, 6], [3, 5], [1, 1]], [[6, 4], [4, 5], [2, 6], [0, 0]]]
    state, _ = play(start(hands), (0, put([6, 6])))
    assert [a["arm"] for a in legal(state, 1) if a["tile"] == [4, 6]] == ["n", "e", "s", "w"]
    state, _ = play(state, (1, put([6, 4], "n")))
    view = RS.view(state, 0)
    assert view["cross"]["arms"]["n"] == {"tiles": [[6, 4]], "end": 4, "open": False}
    assert view["cross"]["arms"]["e"] == {"tiles": [], "end": 6, "open": True}
    # [5|6] may go on e, s or w only; [3|5] fits nothing yet
    assert legal(state, 0) == [put([5, 6], a) for a in ("e", "s", "w")]
    state, _ = play(state, (0, put([5, 6], "e")))
    # seat 1's [4|5] matches the n arm's 4, but the cross is not complete (C-4)
    msg = refused(state, 1, put([4, 5], "n"), "cross is not complete", "s, w")
    assert "C-4" in msg
    refused(state, 1, put([4, 5], "e"), "cross is not complete")
    assert legal(state, 1) == [put([2, 6], "s"), put([2, 6], "w")]


def test_c4_arms_grow_after_the_cross_and_doubles_are_not_spinners():
    hands = [
        [[6, 6], [6, 1], [6, 3], [1, 1], [0, 0], [2, 4]],
        [[6, 2], [6, 4], [1, 5], [5, 5], [0, 4]],
    ]
    state, _ = play(
        start(hands),
        (0, put([6, 6])),
        (1, put([6, 2], "n")),
        (0, put([6, 1], "e")),
        (1, put([6, 4], "s")),
        (0, put([6, 3], "w")),
    )
    view = RS.view(state, 1)
    assert view["cross"]["complete"]
    assert {k: (a["end"], a["open"]) for k, a in view["cross"]["arms"].items()} == {
        "n": (2, True),
        "e": (1, True),
        "s": (4, True),
        "w": (3, True),
    }
    assert legal(state, 1) == [put([0, 4], "s"), put([1, 5], "e")]
    state, _ = play(state, (1, put([1, 5], "e")), (0, put([2, 4], "n")))
    assert RS.view(state, 1)["cross"]["arms"]["n"]["end"] == 4
    state, _ = play(state, (1, put([5, 5], "e")))
    arms = RS.view(state, 0)["cross"]["arms"]
    # the double just extends the e arm: its end is still 5, no new sides opened
    assert arms["e"] == {"tiles": [[6, 1], [1, 5], [5, 5]], "end": 5, "open": True}
    assert sorted(a["end"] for a in arms.values()) == [3, 4, 4, 5]
    assert legal(state, 0) == [DRAW]  # [0|0] and [1|1] fit none of 3, 4, 4, 5


def test_c4_a_double_on_an_arm_accepts_only_its_number():
    hands = [[[6, 6], [6, 1], [6, 3], [1, 1], [0, 0]], [[6, 2], [6, 4], [1, 5], [0, 2]]]
    state, _ = play(
        start(hands),
        (0, put([6, 6])),
        (1, put([6, 2], "n")),
        (0, put([6, 1], "e")),
        (1, put([6, 4], "s")),
        (0, put([6, 3], "w")),
        (1, put([0, 2], "n")),
        (0, put([1, 1], "e")),
    )
    assert legal(state, 1) == [put([1, 5], "e")]
    refused(state, 1, put([1, 5], "n"), "does not match the n arm's open end 0")


# --- C-5 forced play ----------------------------------------------------------------------------


def test_c5_a_player_who_can_play_must_play():
    hands = [[[6, 6], [0, 0]], [[6, 2], [1, 3]]]
    state, _ = play(start(hands), (0, put([6, 6])))
    assert {a["kind"] for a in legal(state, 1)} == {"play"}
    refused(state, 1, DRAW, "must play", "C-5")
    refused(state, 1, PASS, "must play")
    refused(state, 1, put([1, 3], "n"), "does not match")
    refused(state, 1, put([5, 5], "n"), "you do not hold [5, 5]")


# --- C-6 drawing --------------------------------------------------------------------------------


def test_c6_cannot_play_so_draw_is_the_only_action():
    hands = [[[6, 6], [0, 0]], [[1, 2], [3, 4]]]
    state, _ = play(start(hands, stock=[[6, 3]]), (0, put([6, 6])))
    assert legal(state, 1) == [DRAW]
    assert RS.forced_action(state) == RS.parse_action(DRAW)  # O-4: the service applies it
    refused(state, 1, PASS, "draw", "C-6")


def test_c6_drawn_tile_that_fits_must_be_played_and_nothing_else():
    hands = [[[6, 6], [0, 0]], [[1, 2], [3, 4]]]
    state, events = play(start(hands, stock=[[6, 3], [0, 1]]), (0, put([6, 6])), (1, DRAW))
    assert events[-1] == {"type": "drew", "seat": 1, "boneyard": 23}
    assert RS.to_act(state) == 1
    assert legal(state, 1) == [put([3, 6], a) for a in ARMS]
    assert RS.view(state, 1)["drawn"] == {"tile": [3, 6]}
    assert [3, 6] in RS.view(state, 1)["hand"]
    for other in (0, None):
        view = RS.view(state, other)
        assert view["drawn"] is None and view["hand_counts"] == [1, 3]
        assert [3, 6] not in (view["hand"] or [])
    refused(state, 1, DRAW, "you must play the tile you just drew, [3, 6]")
    refused(state, 1, PASS, "[3, 6]")
    state, events = play(state, (1, put([3, 6], "w")))
    assert events == [{"type": "played", "seat": 1, "tile": [3, 6], "arm": "w"}]
    assert RS.to_act(state) == 0 and state.drawn is None


def test_c6_drawn_tile_that_does_not_fit_passes_the_turn():
    hands = [[[6, 6], [0, 0], [0, 1]], [[1, 2], [3, 4]]]
    state, events = play(start(hands, stock=[[2, 4], [6, 3]]), (0, put([6, 6])), (1, DRAW))
    assert events[1:] == [
        {"type": "drew", "seat": 1, "boneyard": 22},
        {"type": "passed", "seat": 1},
    ]
    assert RS.to_act(state) == 0
    assert RS.view(state, 1)["hand"] == [[1, 2], [2, 4], [3, 4]]
    assert RS.view(state, 0)["hand_counts"] == [2, 3]
    # seat 0 cannot play either: it draws the next tile, [3|6], and must play it
    state, _ = play(state, (0, DRAW))
    assert legal(state, 0) == [put([3, 6], a) for a in ARMS]


def test_c6_one_draw_per_turn_by_default_even_after_the_cross():
    hands = [[[6, 6], [6, 1], [6, 3], [0, 0]], [[6, 2], [6, 4], [5, 5]]]
    state, _ = play(
        start(hands, stock=[[0, 5], [2, 4]]),
        (0, put([6, 6])),
        (1, put([6, 2], "n")),
        (0, put([6, 1], "e")),
        (1, put([6, 4], "s")),
        (0, put([6, 3], "w")),
    )
    state, events = play(state, (1, DRAW))
    assert [e["type"] for e in events] == ["drew", "passed"] and RS.to_act(state) == 0


def test_c6_option_draw_until_playable_after_the_cross():
    hands = [[[6, 6], [6, 1], [6, 3], [0, 0]], [[6, 2], [6, 4], [5, 5]]]
    stock = [[0, 5], [5, 6], [1, 3], [0, 1]]
    state, _ = play(
        start(hands, stock=stock, draw_until_playable=True),
        (0, put([6, 6])),
        (1, put([6, 2], "n")),
        (0, put([6, 1], "e")),
        (1, put([6, 4], "s")),
        (0, put([6, 3], "w")),
    )
    state, events = play(state, (1, DRAW))
    assert [e["type"] for e in events] == ["drew"]
    assert RS.to_act(state) == 1 and legal(state, 1) == [DRAW]
    state, _ = play(state, (1, DRAW))
    assert RS.to_act(state) == 1 and legal(state, 1) == [DRAW]
    state, _ = play(state, (1, DRAW))  # [1|3] fits e (1) and w (3)
    assert legal(state, 1) == [put([1, 3], "e"), put([1, 3], "w")]
    assert RS.view(state, 1)["drawn"] == {"tile": [1, 3]}


def test_c6_draw_until_playable_draws_once_during_the_cross():
    hands = [[[6, 6], [0, 0]], [[1, 2], [3, 4]]]
    state, _ = play(
        start(hands, stock=[[2, 4], [6, 3]], draw_until_playable=True), (0, put([6, 6]))
    )
    state, events = play(state, (1, DRAW))
    assert [e["type"] for e in events] == ["drew", "passed"] and RS.to_act(state) == 0


CROSS_OPENING = [
    (0, put([6, 6])),
    (1, put([6, 2], "n")),
    (0, put([6, 1], "e")),
    (1, put([6, 4], "s")),
    (0, put([6, 3], "w")),
]


def rest_of_set(*taken):
    taken = {T.tile(*t) for group in taken for t in group}
    return [list(t) for t in T.DOUBLE_SIX if t not in taken]


def test_c6_draw_until_playable_stops_at_the_last_two_tiles():
    seat1 = [[6, 2], [6, 4], [5, 5]]
    stock = [[0, 5], [5, 6], [1, 2], [3, 4]]
    hands = [rest_of_set(seat1, stock), seat1]
    state, _ = play(start(hands, stock=stock, draw_until_playable=True), *CROSS_OPENING)
    assert len(state.boneyard) == 4 and legal(state, 1) == [DRAW]
    state, events = play(state, (1, DRAW))
    assert [e["type"] for e in events] == ["drew"] and legal(state, 1) == [DRAW]
    state, events = play(state, (1, DRAW))  # [5|6] does not fit; two are left: the turn passes
    assert [e["type"] for e in events] == ["drew", "passed"]
    assert RS.to_act(state) == 0 and len(state.boneyard) == 2
    assert RS.view(state, 1)["hand"] == [[0, 5], [5, 5], [5, 6]]


# --- C-7 last two tiles -------------------------------------------------------------------------


def test_c7_no_drawing_with_two_tiles_left_a_player_who_cannot_play_passes():
    seat1 = [[0, 0], [1, 1], [0, 1]]
    stock = [[2, 3], [4, 5]]
    state, _ = play(start([rest_of_set(seat1, stock), seat1], stock=stock), (0, put([6, 6])))
    view = RS.view(state, 1)
    assert view["boneyard"] == 2 and view["may_draw"] is False
    assert legal(state, 1) == [PASS]
    assert RS.forced_action(state) == RS.parse_action(PASS)
    refused(state, 1, DRAW, "last two tiles", "C-7")
    state, events = play(state, (1, PASS))
    assert events == [{"type": "passed", "seat": 1}] and RS.to_act(state) == 0
    assert len(state.boneyard) == 2


def test_c7_the_draw_that_leaves_two_is_the_last():
    seat1 = [[0, 0], [1, 1]]
    stock = [[0, 1], [2, 3], [4, 5]]
    state, _ = play(start([rest_of_set(seat1, stock), seat1], stock=stock), (0, put([6, 6])))
    assert legal(state, 1) == [DRAW]
    state, events = play(state, (1, DRAW), (0, put([6, 5], "n")))
    assert legal(state, 1) == [PASS] and len(state.boneyard) == 2


# --- O-2 hidden information and the wire form ---------------------------------------------------


def test_o2_views_show_own_hand_counts_and_never_the_boneyard():
    state = RS.new_state({}, 3, seed=5)
    for viewer in (None, 0, 1, 2):
        view = RS.view(state, viewer)
        assert {
            "game",
            "seat",
            "to_act",
            "legal",
            "over",
            "hand",
            "cross",
            "boneyard",
            "hand_counts",
            "scores",
            "round",
            "target",
        } <= set(view)
        assert view["boneyard"] == 13 and view["hand_counts"] == [5, 5, 5]
        assert view["scores"] == [0, 0, 0] and "seed" not in view
        shown = {T.tile(*t) for t in view["hand"] or []}
        assert shown == (set(state.hands[viewer]) if viewer is not None else set())
        assert "boneyard" not in str(view["cross"]) and view["cross"]["spinner"] is None
    assert RS.view(state, None)["legal"] == []


def test_o2_action_wire_form():
    assert RS.parse_action({"kind": "play", "tile": [6, 6]}).to_json() == put([6, 6])
    assert RS.parse_action(put([5, 3], "e")).to_json() == put([3, 5], "e")
    for bad in (
        {"kind": "play", "tile": [3, 5], "arm": "x"},
        {"kind": "play", "tile": [3, 7], "arm": "n"},
        {"kind": "play", "arm": "n"},
        {"kind": "draw", "tile": [1, 1]},
        {"kind": "pass", "arm": "n"},
        {"kind": "lewat"},
        [1, 2],
    ):
        with pytest.raises(IllegalAction):
            RS.parse_action(bad)


def test_load_ignores_the_last_events_of_a_dump_from_before_they_were_dropped():
    state = RS.new_state({}, 3, seed=5)
    data = RS.dump(state)
    assert "last_events" not in data
    old = {
        **data,
        "last_events": [{"type": "round_started", "round": 1, "opener": 0, "redeals": 0}],
    }
    assert RS.load(old) == state
