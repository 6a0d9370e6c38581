"""Mexican Train rules with exact deals, one test (at least) per docs/rules.md section 4 rule."""

import pytest

from app.games import tiles as T
from app.games.errors import BadOptions, IllegalAction, NotYourTurn
from app.games.mexican_train.model import deal_round
from app.games.registry import get_ruleset

RS = get_ruleset("mexican_train")
DRAW, PASS, END = {"kind": "draw"}, {"kind": "pass"}, {"kind": "end_turn"}


def new(hands, stock=None, **options):
    return RS.new_state({"rounds": 1, **options}, len(hands), 7, hands=hands, stock=stock)


def dealt(hands, stock=None):
    """``new``'s state and the events of its deal (T-1, T-3), which only the deal reports."""
    opts = RS.parse_options({"rounds": 1}, len(hands))
    state, events = deal_round(opts, len(hands), 7, 1, [0] * len(hands), (), hands, stock)
    assert state == new(hands, stock)
    return state, events


def play(tile, train):
    return {"kind": "play", "tile": tile, "train": train}


def legal(state):
    return [a.to_json() for a in RS.legal_actions(state, state.turn)]


def act(state, raw):
    step = RS.apply(state, state.turn, RS.parse_action(raw))
    return step.state, list(step.events)


def refused(state, raw) -> str:
    with pytest.raises(IllegalAction) as err:
        RS.apply(state, state.turn, RS.parse_action(raw))
    return err.value.message


def train(state, k):
    return [T.tile(*p) for p in state.trains[k]]


def event_types(events):
    return [e["type"] for e in events]


# --- T-1 players and set -------------------------------------------------------------------


@pytest.mark.parametrize("n,size", [(2, 15), (3, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10)])
def test_t1_deal_size_by_player_count(n, size):
    state, events = deal_round(RS.parse_options({}, n), n, 11, 1, [0] * n, ())
    assert state == RS.new_state({}, n, 11)
    assert events[0]["hand_counts"] == [size] * n
    assert events[0]["boneyard"] == 91 - n * size
    assert sorted(RS.all_tiles(state)) == sorted(T.DOUBLE_TWELVE)


@pytest.mark.parametrize("n", [1, 9])
def test_t1_two_to_eight_players(n):
    with pytest.raises(BadOptions):
        RS.new_state({}, n, 1)


def test_options_are_validated():
    for bad in (
        {"rounds": 0},
        {"rounds": 14},
        {"doubles": "any"},
        {"first_turn_multi": 1},
        {"colour": "red"},
    ):
        with pytest.raises(BadOptions):
            RS.new_state(bad, 4, 1)


# --- T-3 engine ----------------------------------------------------------------------------


def test_t3_engine_placed_by_its_holder_and_next_player_starts():
    state, events = dealt([[[0, 1]], [[2, 3], [12, 12]], [[4, 5]]])
    assert state.engine_by == 1 and state.turn == 2
    assert state.hands[1] == ((2, 3),)
    placed = events[-1]
    assert placed == {"type": "engine_placed", "seat": 1, "tile": [12, 12], "drawn": False}


def test_t3_engine_drawn_for_when_nobody_holds_it():
    state, events = dealt([[[0, 1]], [[2, 3]], [[4, 5]]], [[6, 7], [8, 9], [12, 12], [1, 1]])
    # seat 0 draws [6|7], seat 1 draws [8|9], seat 2 draws the engine and places it
    assert state.engine_by == 2 and state.turn == 0
    assert state.hands == (((0, 1), (6, 7)), ((2, 3), (8, 9)), ((4, 5),))
    assert state.boneyard[0] == (1, 1)
    draws = [e for e in events if e["type"] == "drew"]
    assert [e["seat"] for e in draws] == [0, 1, 2]
    assert all("tile" not in e for e in draws)
    assert events[-1]["drawn"] is True


def test_t3_draw_for_engine_starts_at_round_minus_one():
    opts = RS.parse_options({}, 3)
    state, events = deal_round(
        opts, 3, 7, 2, [0, 0, 0], (), hands=[[[0, 1]], [[2, 3]], [[4, 5]]], stock=[[6, 7], [11, 11]]
    )
    assert [e["seat"] for e in events if e["type"] == "drew"] == [1, 2]
    assert state.engine_by == 2 and state.turn == 0 and state.engine == 11


# --- T-4 .. T-6 trains and markers -----------------------------------------------------------


def marker_game():
    hands = [
        [[12, 12], [12, 0], [0, 7], [3, 3]],
        [[1, 2], [2, 4], [4, 11]],
        [[12, 2], [12, 6], [6, 10], [10, 11], [3, 8]],
    ]
    return new(hands, stock=[[4, 5], [1, 12], [5, 9]])


def test_t4_t6_trains_start_from_the_engine_number():
    state = marker_game()
    state, _ = act(state, DRAW)  # seat 1 cannot start: draws [4|5], which does not fit
    state, _ = act(state, PASS)
    assert legal(state) == [play([2, 12], 2), play([6, 12], 2)]
    state, _ = act(state, play([6, 12], 2))
    assert train(state, 2) == [(6, 12)] and state.trains[2] == ((12, 6),)
    view = RS.view(state, 0)
    assert view["trains"][2]["open_end"] == 6 and view["mexican"]["open_end"] == 12


def test_t6_other_trains_only_while_they_carry_a_marker():
    state = marker_game()
    state, _ = act(state, DRAW)
    state, events = act(state, PASS)  # seat 1's marker goes by its empty slot
    assert events == [{"type": "passed", "seat": 1, "marker": True}]
    assert state.markers == (False, True, False)
    state, _ = act(state, play([6, 12], 2))
    state, _ = act(state, play([6, 10], 2))
    state, _ = act(state, play([10, 11], 2))  # run ends by itself: nothing fits 11
    assert state.turn == 0
    state, _ = act(state, play([0, 12], 0))
    state, _ = act(state, play([0, 7], 0))
    assert state.turn == 1
    # seat 1 holds [4|11], which fits seat 2's train, but that train carries no marker
    assert "no marker" in refused(state, play([4, 11], 2))
    state, _ = act(state, DRAW)  # draws [1|12]
    assert legal(state) == [play([1, 12], 1), play([1, 12], "mexican")]
    state, _ = act(state, play([1, 12], "mexican"))
    assert state.markers[1], "playing on the Mexican Train keeps the marker (T-5)"
    # seat 2 may start seat 1's train because it carries seat 1's marker
    assert play([2, 12], 1) in legal(state)
    state, events = act(state, play([2, 12], 1))
    assert train(state, 1) == [(2, 12)]
    assert state.markers[1], "another player's tile never lifts the marker (T-5)"
    assert "marker_removed" not in events[0]


def test_t5_marker_removed_only_by_its_owner_on_their_own_train():
    state = after_marker_play()
    assert state.turn == 0 and state.markers == (False, True, False)
    state, _ = act(state, DRAW)  # [5|9] fits nothing open to seat 0
    state, _ = act(state, PASS)
    assert state.markers == (True, True, False)
    assert state.turn == 1
    assert play([2, 4], 1) in legal(state) and play([1, 2], "mexican") in legal(state)
    state, events = act(state, play([2, 4], 1))
    assert events[0]["marker_removed"] is True
    assert state.markers == (True, False, False)


def after_marker_play():
    """The marker game after seat 2 started seat 1's marked train; seat 0 to act."""
    state = marker_game()
    for raw in (
        DRAW,
        PASS,
        play([6, 12], 2),
        play([6, 10], 2),
        play([10, 11], 2),
        play([0, 12], 0),
        play([0, 7], 0),
        DRAW,
        play([1, 12], "mexican"),
        play([2, 12], 1),
    ):
        state, _ = act(state, raw)
    assert state.turn == 0
    return state


# --- T-7 first turn --------------------------------------------------------------------------


def test_t7_first_turn_run_on_own_train_only():
    state = new([[[12, 12], [0, 1]], [[12, 3], [3, 4], [4, 4], [4, 9], [12, 5], [1, 2]]])
    assert state.turn == 1
    assert legal(state) == [play([3, 12], 1), play([5, 12], 1)]
    assert "own train only" in refused(state, play([3, 12], "mexican"))
    assert "do not hold" in refused(state, play([0, 1], 1))
    assert "may not draw" in refused(state, DRAW)
    state, _ = act(state, play([3, 12], 1))
    assert state.turn == 1 and legal(state) == [play([3, 4], 1), END]
    state, _ = act(state, play([3, 4], 1))
    # a double in the run must be covered before the run may stop (T-9)
    state, _ = act(state, play([4, 4], 1))
    assert legal(state) == [play([4, 9], 1)]
    assert "extra play of your double" in refused(state, END)
    state, _ = act(state, play([4, 9], 1))
    # nothing more fits 9: the turn ends by itself
    assert state.turn == 0
    assert train(state, 1) == [(3, 12), (3, 4), (4, 4), (4, 9)]
    assert state.hands[1] == ((1, 2), (5, 12))


def test_t7_end_turn_stops_a_run():
    state = new([[[12, 12], [0, 1]], [[12, 3], [3, 4], [1, 2]]])
    state, _ = act(state, play([3, 12], 1))
    state, events = act(state, END)
    assert events == [{"type": "ended_turn", "seat": 1}]
    assert state.turn == 0 and state.hands[1] == ((1, 2), (3, 4))
    state, _ = act(state, DRAW)
    if legal(state) != [PASS]:  # the shuffled boneyard gave seat 0 a tile that fits
        state, _ = act(state, legal(state)[0])
    # later turns: one tile only, and end_turn is never offered again
    assert state.turn == 1
    assert END not in legal(state)
    state, _ = act(state, play([3, 4], 1))
    assert state.turn == 0


def test_t7_cannot_start_draws_and_plays_the_drawn_tile_only():
    state = new([[[12, 12], [0, 1]], [[3, 4], [5, 6]]], stock=[[12, 3], [9, 9]])
    assert legal(state) == [DRAW]
    state, events = act(state, DRAW)
    assert events == [{"type": "drew", "seat": 1}]
    assert legal(state) == [play([3, 12], 1)], "the drawn tile, on the own train only"
    assert "only the drawn tile" in refused(state, play([3, 4], 1))
    state, _ = act(state, play([3, 12], 1))
    assert state.turn == 0, "a drawn tile ends the first turn: no run after drawing"
    assert state.hands[1] == ((3, 4), (5, 6)) and not state.markers[1]


def test_t7_cannot_start_and_drawn_tile_misses_puts_the_marker_by_the_slot():
    state = new([[[12, 12], [0, 1]], [[3, 4], [5, 6]]], stock=[[9, 9], [12, 3]])
    state, _ = act(state, DRAW)
    assert legal(state) == [PASS]
    assert "drew [9, 9]" in refused(state, DRAW)
    state, events = act(state, PASS)
    assert state.markers == (False, True) and state.trains[1] == ()
    assert RS.view(state, 0)["trains"][1] == {
        "seat": 1,
        "tiles": [],
        "open_end": 12,
        "marker": True,
        "started": False,
    }


def test_t7_option_single_tile_first_turn_is_an_ordinary_turn():
    state = new([[[12, 12], [0, 1]], [[12, 3], [3, 4], [1, 2]]], first_turn_multi=False)
    assert legal(state) == [play([3, 12], 1), play([3, 12], "mexican")]
    state, _ = act(state, play([3, 12], 1))
    assert state.turn == 0, "one tile, as on any turn"


# --- T-8 ordinary turn -------------------------------------------------------------------------


def ordinary_game(stock):
    """Two players after both first turns: seat 1 to act, trains end 3 (seat 1), 0 (seat 0)."""
    state = new(
        [[[12, 12], [12, 0], [7, 8], [8, 9]], [[12, 3], [5, 6], [6, 6], [10, 11]]], stock=stock
    )
    state, _ = act(state, play([3, 12], 1))
    state, _ = act(state, play([0, 12], 0))
    assert state.turn == 1
    return state


def test_t8_cannot_play_draws_one_and_must_play_it():
    state = ordinary_game(stock=[[3, 5], [1, 1]])
    assert legal(state) == [DRAW]
    assert "draw first" in refused(state, PASS)
    state, _ = act(state, DRAW)
    assert legal(state) == [play([3, 5], 1)]
    assert "play it if it fits" in refused(state, PASS)
    state, events = act(state, play([3, 5], 1))
    assert state.turn == 0 and train(state, 1) == [(3, 12), (3, 5)]


def test_t8_drawn_tile_that_misses_puts_out_the_marker():
    state = ordinary_game(stock=[[1, 1], [3, 5]])
    state, _ = act(state, DRAW)
    state, events = act(state, PASS)
    assert events == [{"type": "passed", "seat": 1, "marker": True}]
    assert state.markers == (False, True) and state.turn == 0
    assert state.hands[1] == ((1, 1), (5, 6), (6, 6), (10, 11))


def test_t8_one_tile_per_ordinary_turn():
    state = new([[[12, 12], [12, 0], [7, 8], [8, 9]], [[12, 3], [3, 9], [9, 10], [10, 11]]])
    state, _ = act(state, play([3, 12], 1))
    state, _ = act(state, END)
    state, _ = act(state, play([0, 12], 0))
    assert legal(state) == [play([3, 9], 1)]
    state, _ = act(state, play([3, 9], 1))
    assert state.turn == 0 and state.hands[1] == ((9, 10), (10, 11))


# --- T-9 doubles -------------------------------------------------------------------------------


def test_t9_double_gives_an_extra_play_that_must_cover_it():
    state = new(
        [[[12, 12], [0, 1]], [[12, 5], [5, 5], [5, 6], [4, 12], [1, 2]]],
        stock=[[0, 2]],
        first_turn_multi=False,
    )
    state, _ = act(state, play([5, 12], 1))
    state, _ = act(state, DRAW)
    state, _ = act(state, PASS)
    state, events = act(state, play([5, 5], 1))
    assert state.turn == 1 and state.extra
    assert RS.view(state, 1)["must_cover"] == {"train": 1, "number": 5}
    assert legal(state) == [play([5, 6], 1)], "[4|12] would fit the Mexican Train, now closed"
    assert "must be covered first" in refused(state, play([4, 12], "mexican"))
    state, _ = act(state, play([5, 6], 1))
    assert state.turn == 0 and state.uncovered == ()


def test_t9_satisfy_closes_every_other_train_for_the_next_players_and_draws_to_cover():
    hands = [
        [[12, 12], [1, 1], [2, 3]],
        [[12, 5], [5, 5], [6, 7], [0, 0]],
        [[12, 8], [8, 9], [4, 4]],
    ]
    state = new(hands, stock=[[0, 1], [6, 6], [2, 2], [5, 9]], first_turn_multi=False)
    state, _ = act(state, play([5, 12], 1))
    state, _ = act(state, play([8, 12], "mexican"))
    state, _ = act(state, DRAW)  # seat 0: [0|1] fits nothing
    state, _ = act(state, PASS)
    state, _ = act(state, play([5, 5], 1))  # seat 1's double, and nothing to cover it
    assert legal(state) == [DRAW]
    state, _ = act(state, DRAW)  # [6|6] does not cover 5
    assert legal(state) == [PASS]
    state, _ = act(state, PASS)
    assert state.turn == 2 and state.uncovered == (1,) and state.markers[1]
    # seat 2 holds [8|9], which fits the Mexican Train, but only the double's train is open
    assert legal(state) == [DRAW]
    assert "double on train 1 must be covered first" in refused(state, play([8, 9], "mexican"))
    state, _ = act(state, DRAW)  # [2|2]
    state, _ = act(state, PASS)
    assert state.turn == 0 and RS.view(state, 0)["must_cover"] == {"train": 1, "number": 5}
    assert legal(state) == [DRAW]
    state, _ = act(state, DRAW)  # [5|9] covers it, and must be played there
    assert legal(state) == [play([5, 9], 1)]
    state, _ = act(state, play([5, 9], 1))
    assert state.uncovered == () and state.turn == 1
    assert train(state, 1) == [(5, 12), (5, 5), (5, 9)]
    assert state.markers[1], "covering seat 1's double does not lift seat 1's marker"


def test_t9_first_turn_run_ending_on_a_double_is_covered_by_the_next_player():
    state = new([[[12, 12], [3, 9], [12, 1]], [[12, 3], [3, 3], [1, 2]]], stock=[[0, 1]])
    state, _ = act(state, play([3, 12], 1))
    state, _ = act(state, play([3, 3], 1))
    assert legal(state) == [DRAW]
    state, _ = act(state, DRAW)
    state, _ = act(state, PASS)
    # seat 0's first turn is spent covering: [1|12] could start its own train, not now
    assert state.turn == 0 and legal(state) == [play([3, 9], 1)]
    state, _ = act(state, play([3, 9], 1))
    assert state.turn == 1 and state.first_turn == (False, False)


def test_t9_chain_two_doubles_covered_in_the_order_played():
    hands = [[[12, 12], [12, 7], [4, 5], [7, 8], [0, 1]], [[12, 4], [4, 4], [7, 7], [2, 3]]]
    state = new(hands, stock=[[9, 10], [10, 11]], first_turn_multi=False, doubles="chain")
    state, _ = act(state, play([4, 12], 1))
    state, _ = act(state, play([7, 12], "mexican"))
    state, _ = act(state, play([4, 4], 1))
    # chain: the extra play may go elsewhere, another double included
    assert legal(state) == [play([7, 7], "mexican")]
    state, _ = act(state, play([7, 7], "mexican"))
    assert state.uncovered == (1, 2)
    state, _ = act(state, DRAW)
    state, _ = act(state, PASS)
    view = RS.view(state, 0)
    assert view["uncovered"] == [{"train": 1, "number": 4}, {"train": "mexican", "number": 7}]
    # the older double first: [7|8] on the Mexican Train must wait
    assert legal(state) == [play([4, 5], 1)]
    assert "double on train 1" in refused(state, play([7, 8], "mexican"))
    state, _ = act(state, play([4, 5], 1))
    assert state.turn == 1 and RS.view(state, 1)["must_cover"] == {"train": "mexican", "number": 7}
    state, _ = act(state, DRAW)  # [10|11] does not cover 7
    state, _ = act(state, PASS)
    assert legal(state) == [play([7, 8], "mexican")]
    state, _ = act(state, play([7, 8], "mexican"))
    assert state.uncovered == ()


def test_t9_satisfy_does_not_allow_a_second_double_in_the_extra_play():
    hands = [[[12, 12], [12, 7], [0, 1]], [[12, 4], [4, 4], [7, 7], [4, 6]]]
    state = new(hands, first_turn_multi=False)
    state, _ = act(state, play([4, 12], 1))
    state, _ = act(state, play([7, 12], "mexican"))
    state, _ = act(state, play([4, 4], 1))
    assert legal(state) == [play([4, 6], 1)]


# --- T-10 going out ------------------------------------------------------------------------------


def test_t10_going_out_on_a_double_ends_the_round_at_once():
    state = new(
        [[[12, 12], [0, 1], [0, 2]], [[12, 3], [3, 3]]], stock=[[5, 6]], first_turn_multi=False
    )
    state, _ = act(state, play([3, 12], 1))
    state, _ = act(state, DRAW)
    state, _ = act(state, PASS)
    state, events = act(state, play([3, 3], 1))
    assert event_types(events) == ["played", "round_over", "match_over"]
    over = events[1]
    assert over["ending"] == "out" and over["out"] == [1]
    assert over["scores"] == [14, 0]  # [0|1] [0|2] [5|6]
    assert RS.to_act(state) is None
    outcome = RS.outcome(state)
    assert outcome.winners == (1,) and outcome.scores == (14, 0)


def test_t10_first_turn_going_out_lets_the_others_finish_their_first_turn():
    hands = [[[12, 12], [12, 5], [5, 6], [9, 9]], [[12, 3], [3, 4]], [[12, 8], [1, 1]]]
    state = new(hands)
    state, _ = act(state, play([3, 12], 1))
    state, events = act(state, play([3, 4], 1))  # out, on the first turn
    assert event_types(events) == ["played"] and state.turn == 2
    state, events = act(state, play([8, 12], 2))  # nothing fits 8: turn over
    assert state.turn == 0
    state, _ = act(state, play([5, 12], 0))
    state, events = act(state, play([5, 6], 0))
    assert event_types(events) == ["played", "round_over", "match_over"]
    assert events[1]["scores"] == [18, 0, 2]
    assert RS.outcome(state).winners == (1,)


def test_t10_t12_eight_players_all_out_on_their_first_turn_share_the_win():
    hands = [[[12, k], [k, 11]] for k in range(7)] + [[[12, 12], [8, 9], [9, 10]]]
    state = new(hands, stock=[[1, 1]])
    assert state.turn == 0 and RS.view(state, 0)["mexican"]["beside_hub"] is True
    for k in range(7):
        assert state.turn == k
        state, _ = act(state, play([k, 12], k))
        state, events = act(state, play([k, 11], k))
        assert "round_over" not in event_types(events)
    assert legal(state) == [DRAW]
    state, _ = act(state, DRAW)
    state, events = act(state, PASS)
    assert events[-2]["scores"] == [0] * 7 + [1 + 1 + 8 + 9 + 9 + 10]
    assert RS.outcome(state).winners == tuple(range(7))


# --- T-11 blocked round, T-12 scoring -----------------------------------------------------------


def blocked_deal():
    """Every tile dealt (empty boneyard); the trains can be built to end in 12 everywhere."""
    own0 = [[0, 12], [0, 1], [1, 12], [2, 12], [2, 3], [3, 12]]
    own1 = [[4, 12], [4, 5], [5, 12], [6, 12], [6, 7], [7, 12]]
    mex1, mex0 = [[8, 12], [9, 12], [10, 11]], [[8, 9], [10, 12], [11, 12]]
    used = {T.tile(*t) for t in own0 + own1 + mex0 + mex1} | {(12, 12)}
    rest = [t for t in T.DOUBLE_TWELVE if t not in used]
    hands = [
        [[12, 12], *own0, *mex0, *map(list, rest[0::2])],
        [*own1, *mex1, *map(list, rest[1::2])],
    ]
    return hands, rest


def test_t11_blocked_round_with_an_empty_boneyard():
    hands, rest = blocked_deal()
    state = new(hands)
    assert state.boneyard == ()
    for tile in ([4, 12], [4, 5], [5, 12], [6, 12], [6, 7], [7, 12]):
        state, _ = act(state, play(tile, 1))
    state, _ = act(state, END)
    for tile in ([0, 12], [0, 1], [1, 12], [2, 12], [2, 3], [3, 12]):
        state, _ = act(state, play(tile, 0))
    state, _ = act(state, END)
    for tile in ([8, 12], [8, 9], [9, 12], [10, 12], [10, 11], [11, 12]):
        state, _ = act(state, play(tile, "mexican"))
    assert state.turn == 1 and legal(state) == [PASS]  # T-8: empty boneyard, marker out
    assert "boneyard is empty" in refused(state, DRAW)
    state, events = act(state, PASS)
    assert event_types(events) == ["passed"] and state.turn == 0 and state.markers == (False, True)
    assert legal(state) == [PASS]
    state, events = act(state, PASS)
    # seat 0's new marker opened its train to seat 1: seat 1 must show it is still stuck
    assert event_types(events) == ["passed"] and state.markers == (True, True)
    assert legal(state) == [PASS]
    state, events = act(state, PASS)
    assert event_types(events) == ["passed", "round_over", "match_over"]
    over = events[1]
    assert over["ending"] == "blocked" and over["out"] == []
    expected = [T.hand_pips(rest[0::2]), T.hand_pips(rest[1::2])]
    assert over["scores"] == expected and list(RS.outcome(state).scores) == expected
    assert RS.outcome(state).winners == (expected.index(min(expected)),)
    assert over["hands"] == [T.hand_json(h) for h in state.hands]


def test_t11_a_new_marker_opens_a_train_so_the_round_goes_on():
    """Three passes in a row, but the last two markers opened trains seat 0 can play on."""
    plain = [
        t
        for t in T.DOUBLE_TWELVE
        if 5 not in t and 12 not in t and t not in {(1, 2), (3, 4), (6, 7), (8, 9), (10, 11)}
    ]
    fives = [[a, 5] for a in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)]
    hands = [
        [[1, 12], [1, 2], [3, 12], [6, 12], [8, 12], [10, 12], *fives, *map(list, plain[0::3])],
        [[5, 12], [2, 12], [3, 4], [6, 7], [8, 9], [10, 11], *map(list, plain[1::3])],
        [[12, 12], [0, 12], [0, 5], [4, 12], [7, 12], [9, 12], [11, 12], *map(list, plain[2::3])],
    ]
    state = new(hands, first_turn_multi=False)
    assert state.boneyard == () and state.turn == 0
    script = [
        ([1, 12], "mexican"),
        ([5, 12], 1),
        ([0, 12], 2),
        ([1, 2], "mexican"),
        ([2, 12], "mexican"),
        ([0, 5], 2),
        ([3, 12], "mexican"),
        ([3, 4], "mexican"),
        ([4, 12], "mexican"),
        ([6, 12], "mexican"),
        ([6, 7], "mexican"),
        ([7, 12], "mexican"),
        ([8, 12], "mexican"),
        ([8, 9], "mexican"),
        ([9, 12], "mexican"),
        ([10, 12], "mexican"),
        ([10, 11], "mexican"),
        ([11, 12], "mexican"),
    ]
    for tile, where in script:
        state, _ = act(state, play(tile, where))
    for seat in (0, 1, 2):  # seats 1 and 2 end in 5, closed to seat 0 until their markers
        assert state.turn == seat and legal(state) == [PASS]
        state, events = act(state, PASS)
        assert event_types(events) == ["passed"]
    assert state.markers == (True, True, True) and RS.to_act(state) == 0
    assert play([1, 5], 1) in legal(state) and play([1, 5], 2) in legal(state)


# --- T-2, T-13 rounds ----------------------------------------------------------------------------


def test_t2_t13_next_round_uses_the_next_engine_and_totals_carry_over():
    state = RS.new_state(
        {"rounds": 2, "first_turn_multi": False},
        2,
        7,
        hands=[[[12, 12], [0, 1], [0, 2]], [[12, 3], [3, 3]]],
        stock=[[5, 6]],
    )
    state, _ = act(state, play([3, 12], 1))
    state, _ = act(state, DRAW)
    state, _ = act(state, PASS)
    state, events = act(state, play([3, 3], 1))
    types = event_types(events)
    assert types[:3] == ["played", "round_over", "dealt"] and "match_over" not in types
    assert events[2]["round"] == 2 and events[2]["engine"] == 11
    assert events[2]["hand_counts"] == [15, 15]
    assert state.round_no == 2 and state.totals == (14, 0)
    assert RS.view(state, 0)["hub"]["tile"] == [11, 11]
    assert state.turn == (state.engine_by + 1) % 2
    assert sorted(RS.all_tiles(state)) == sorted(T.DOUBLE_TWELVE)
    assert RS.view(state, 0)["round_scores"][0]["scores"] == [14, 0]
    # the deal of round 2 comes from the seed alone
    opts = RS.parse_options({"rounds": 2, "first_turn_multi": False}, 2)
    again, _ = deal_round(opts, 2, 7, 2, [14, 0], state.rounds_log)
    assert again.hands == state.hands and again.boneyard == state.boneyard


# --- O-2 hidden information, the wire format ----------------------------------------------------


def test_o2_views_hide_other_hands_and_the_drawn_tile():
    state = new([[[12, 12], [0, 1]], [[3, 4], [5, 6]]], stock=[[9, 9], [12, 3]])
    state, events = act(state, DRAW)
    assert events == [{"type": "drew", "seat": 1}]
    own, other, spectator = RS.view(state, 1), RS.view(state, 0), RS.view(state, None)
    assert own["hand"] == [[3, 4], [5, 6], [9, 9]] and own["drawn"] == {"tile": [9, 9]}
    assert own["legal"] == [PASS]
    assert other["hand"] == [[0, 1]] and other["drawn"] is None and other["legal"] == []
    assert spectator["hand"] is None and spectator["hand_counts"] == [1, 3]
    assert other["boneyard"] == spectator["boneyard"] == len(state.boneyard)
    assert (9, 9) in RS.hidden_tiles(state, 0) and (9, 9) not in RS.hidden_tiles(state, 1)
    with pytest.raises(NotYourTurn):
        RS.apply(state, 0, RS.parse_action(PASS))


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "play", "tile": [1, 2]},
        {"kind": "play", "tile": [1, 13], "train": 0},
        {"kind": "play", "tile": [1, 2], "train": True},
        {"kind": "play", "tile": [1, 2], "train": 8},
        {"kind": "play", "tile": [1, 2], "train": "mex"},
        {"kind": "draw", "tile": [1, 2]},
        {"kind": "marker"},
        [1, 2],
    ],
)
def test_malformed_actions_are_refused(raw):
    with pytest.raises(IllegalAction):
        RS.parse_action(raw)


def test_actions_round_trip_through_json():
    for raw in (play([3, 5], 2), play([3, 5], "mexican"), DRAW, PASS, END):
        assert RS.parse_action(raw).to_json() == raw
    state = new([[[12, 12], [0, 1]], [[12, 3], [5, 6]]])
    assert "no train 5" in refused(state, play([3, 12], 5))
    assert "no train 2" in refused(state, play([3, 12], 2)), "seat numbers only name seats"


def test_view_shows_the_whole_table():
    state = new([[[12, 12], [0, 1]], [[12, 3], [3, 3], [1, 2]]], stock=[[0, 2]])
    state, _ = act(state, play([3, 12], 1))
    state, _ = act(state, play([3, 3], 1))
    view = RS.view(state, 1)
    assert {
        "game",
        "seat",
        "to_act",
        "legal",
        "over",
        "round",
        "rounds",
        "hub",
        "hand",
        "drawn",
        "trains",
        "mexican",
        "must_cover",
        "uncovered",
        "boneyard",
        "hand_counts",
        "round_scores",
        "totals",
        "result",
    } <= set(view)
    assert "last_events" not in view  # O-2's history of moves comes from the table's events
    assert view["hub"] == {"tile": [12, 12], "placed_by": 0}
    assert view["trains"][1] == {
        "seat": 1,
        "tiles": [[12, 3], [3, 3]],
        "open_end": 3,
        "marker": False,
        "started": True,
    }
    assert view["mexican"] == {"tiles": [], "open_end": 12, "beside_hub": False}
    assert view["must_cover"] == {"train": 1, "number": 3}
    assert view["to_act"] == 1 and view["legal"] == [DRAW]
    assert view["hand_counts"] == [1, 1] and view["totals"] == [0, 0]


def test_load_ignores_the_last_events_of_a_dump_from_before_they_were_dropped():
    state, events = dealt([[[0, 1]], [[2, 3], [12, 12]], [[4, 5]]])
    data = RS.dump(state)
    assert "last_events" not in data
    assert RS.load({**data, "last_events": list(events)}) == state
