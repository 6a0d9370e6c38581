"""Gaple rules, one test (at least) per docs/rules.md ID, each on an exact deal.

Short hands (fewer than seven tiles) set up end positions directly; ``opener`` fixes the first
player through the ``previous_winner`` option so the deals are fully scripted.
"""

from collections import Counter

import pytest

from app.games import tiles as T
from app.games.base import Payment, RoundResult
from app.games.errors import BadOptions, GameOver, IllegalAction, NotYourTurn
from app.games.registry import get_ruleset

RS = get_ruleset("gaple")


def start(hands, opener=0, **options):
    options = {"opener": "previous_winner", "previous_winner": opener, **options}
    return RS.new_state(options, len(hands), seed=7, hands=hands)


def play(state, *moves):
    """Apply (seat, action-json) moves; returns the final state and all events."""
    events = []
    for seat, action in moves:
        step = RS.apply(state, seat, RS.parse_action(action))
        state = step.state
        events.extend(step.events)
    return state, events


def put(tile, end="left"):
    return {"kind": "play", "tile": tile, "end": end}


PASS = {"kind": "pass"}


def result(state):
    assert RS.to_act(state) is None
    return RS.outcome(state).detail


# --- G-1 set and deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_g1_seven_tiles_each_rest_out_of_play_and_hidden(n):
    state = RS.new_state({}, n, seed=123)
    assert [len(h) for h in state.hands] == [7] * n
    assert len(state.undealt) == 28 - 7 * n
    assert Counter(RS.all_tiles(state)) == Counter(T.DOUBLE_SIX)
    for viewer in (None, *range(n)):
        view = RS.view(state, viewer)
        shown = {T.tile(*t) for t in view["hand"] or []}
        assert not shown & set(state.undealt)
        assert "undealt" not in view and "seed" not in view


def test_g1_two_players_never_draw_undealt_tiles():
    # seat 1 cannot play: it passes (Lewat) — there is no draw action in Gaple.
    state = start([[[6, 6], [6, 5]], [[0, 1], [0, 2]]])
    state, _ = play(state, (0, put([6, 6])))
    assert RS.legal_actions(state, 1) == (RS.parse_action(PASS),)
    with pytest.raises(IllegalAction):
        RS.parse_action({"kind": "draw"})


# --- G-2 opening --------------------------------------------------------------------------------


def test_g2_random_opener_covers_every_seat_evenly():
    openers = Counter(RS.to_act(RS.new_state({}, 4, seed=s)) for s in range(4000))
    assert set(openers) == {0, 1, 2, 3}
    assert all(850 < c < 1150 for c in openers.values()), openers


def test_g2_opener_may_open_with_any_tile():
    hands = [
        [[0, 0], [1, 3], [2, 5], [6, 6], [4, 5], [0, 6], [1, 1]],
        [[2, 2], [3, 3], [4, 4], [5, 5], [0, 1], [0, 2], [0, 3]],
    ]
    state = start(hands, opener=1)
    assert RS.to_act(state) == 1
    assert {a.tile for a in RS.legal_actions(state, 1)} == {T.tile(*t) for t in hands[1]}


def test_g2_previous_winner_option_opens_and_random_is_the_default():
    hands = [[[0, 0]], [[1, 1]], [[2, 2]]]
    assert RS.to_act(start(hands, opener=2)) == 2
    assert RS.parse_options({}, 3)["opener"] == "random"
    # previous_winner without a previous round (first round) falls back to random
    first = RS.new_state({"opener": "previous_winner"}, 3, seed=5)
    assert first.turn == RS.new_state({}, 3, seed=5).turn


# --- G-3 turns ----------------------------------------------------------------------------------


def test_g3_turns_pass_clockwise():
    state = start(
        [[[3, 4], [0, 0]], [[3, 3], [0, 1]], [[4, 5], [0, 2]], [[5, 6], [1, 1]]], opener=2
    )
    seen = []
    for tile in ([4, 5], [5, 6], [3, 4], [3, 3]):
        seat = RS.to_act(state)
        seen.append(seat)
        legal = RS.legal_actions(state, seat)
        state = RS.apply(state, seat, next(a for a in legal if a.tile == T.tile(*tile))).state
    assert seen == [2, 3, 0, 1]


# --- G-4 playing --------------------------------------------------------------------------------


def test_g4_first_tile_makes_both_ends_left_a_right_b():
    state, _ = play(start([[[2, 5], [0, 0]], [[1, 1]]]), (0, put([2, 5])))
    assert RS.view(state, 1)["ends"] == {"left": 2, "right": 5}


def test_g4_tile_must_match_the_end_it_is_played_on():
    state, _ = play(start([[[2, 5], [0, 0]], [[5, 6], [2, 3]]]), (0, put([2, 5])))
    with pytest.raises(IllegalAction, match="does not match"):
        RS.apply(state, 1, RS.parse_action(put([5, 6], "left")))
    state, _ = play(state, (1, put([5, 6], "right")))
    assert RS.view(state, 0)["ends"] == {"left": 2, "right": 6}
    assert RS.view(state, 0)["line"] == [[2, 5], [5, 6]]


def test_g4_a_tile_fitting_both_ends_lets_the_player_choose():
    state = start([[[2, 4], [4, 5], [0, 0]], [[2, 5], [1, 1]]])
    state, _ = play(state, (0, put([2, 4])), (1, put([2, 5], "left")))  # ends 5 .. 4
    assert {a.end for a in RS.legal_actions(state, 0) if a.tile == (4, 5)} == {"left", "right"}
    on_left, _ = play(state, (0, put([4, 5], "left")))
    on_right, _ = play(state, (0, put([4, 5], "right")))
    assert RS.view(on_left, 1)["ends"] == {"left": 4, "right": 4}
    assert RS.view(on_right, 1)["ends"] == {"left": 5, "right": 5}


def test_g4_playing_another_seats_tile_is_refused():
    state = start([[[2, 5], [0, 0]], [[5, 6], [1, 1]]])
    with pytest.raises(IllegalAction, match=r"do not hold \[5, 6\]"):
        RS.apply(state, 0, RS.parse_action(put([5, 6])))
    with pytest.raises(NotYourTurn):
        RS.apply(state, 1, RS.parse_action(put([5, 6])))


# --- G-5 forced play ----------------------------------------------------------------------------


def test_g5_passing_with_a_playable_tile_is_refused_and_changes_nothing():
    state, _ = play(start([[[2, 5], [0, 0]], [[5, 6], [1, 1]]]), (0, put([2, 5])))
    before = RS.dump(state)
    with pytest.raises(IllegalAction, match="must play"):
        RS.apply(state, 1, RS.parse_action(PASS))
    assert RS.dump(state) == before
    assert RS.parse_action(PASS) not in RS.legal_actions(state, 1)


# --- G-6 Lewat ----------------------------------------------------------------------------------


def test_g6_lewat_pays_previous_seat_even_when_it_passed_too():
    hands = [[[5, 5], [5, 6], [0, 0]], [[0, 1], [1, 2]], [[0, 2], [2, 3]]]
    state = start(hands, stake=10, stacks=[100, 100, 100])
    state, events = play(state, (0, put([5, 5])), (1, PASS), (2, PASS))
    lewat = [e for e in events if e["type"] == "lewat"]
    assert lewat == [
        {"type": "lewat", "kind": "lewat", "payer": 1, "payee": 0, "amount": 10, "shortfall": 0},
        {"type": "lewat", "kind": "lewat", "payer": 2, "payee": 1, "amount": 10, "shortfall": 0},
    ]
    assert state.stacks == (110, 100, 90)
    assert RS.to_act(state) == 0


def test_g6_lewat_comes_out_of_the_step_as_a_typed_payment():
    # the exact deal above: seat 1 cannot play on [5|5] and pays seat 0 one stake
    hands = [[[5, 5], [5, 6], [0, 0]], [[0, 1], [1, 2]], [[0, 2], [2, 3]]]
    state = start(hands, stake=10, stacks=[100, 100, 100])
    state, _ = play(state, (0, put([5, 5])))
    step = RS.apply(state, 1, RS.parse_action(PASS))
    assert step.payments == (Payment("lewat", payer=1, payee=0, amount=10, shortfall=0),)
    assert step.rounds == ()
    (event,) = [e for e in step.events if e["type"] == "lewat"]
    assert {"type": "lewat", **step.payments[0].to_json()} == event
    assert step.state.payments == (step.payments[0].to_json(),)


def test_g6_plays_carry_no_payment_or_round():
    state = start([[[5, 5], [5, 6], [0, 0]], [[0, 1], [1, 2]]])
    step = RS.apply(state, 0, RS.parse_action(put([5, 5])))
    assert (step.payments, step.rounds) == ((), ())


def test_g6_lewat_from_seat_zero_pays_the_last_seat():
    state = start([[[0, 1], [1, 1]], [[5, 5], [5, 6]], [[3, 3], [2, 2]]], opener=1)
    state, events = play(state, (1, put([5, 5])), (2, PASS), (0, PASS))
    assert [(e["payer"], e["payee"]) for e in events if e["type"] == "lewat"] == [(2, 1), (0, 2)]


# --- G-7 going out ------------------------------------------------------------------------------


def test_g7_playing_the_last_tile_ends_the_round_and_wins():
    state = start([[[1, 3], [3, 5]], [[1, 5], [6, 6]]])
    state, events = play(
        state, (0, put([1, 3])), (1, put([1, 5], "left")), (0, put([3, 5], "right"))
    )
    res = result(state)
    assert res["winner"] == 0 and res["ending"] == "out"
    assert events[-1]["type"] == "round_over"
    with pytest.raises(GameOver):
        RS.apply(state, 1, RS.parse_action(PASS))


# --- G-8 Dead-End -------------------------------------------------------------------------------


def test_g8_dead_end_ends_at_once_with_no_lewat_and_lowest_pips_wins():
    state = start([[[1, 1], [5, 6]], [[1, 2], [3, 3]]])
    state, events = play(state, (0, put([1, 1])), (1, put([1, 2], "right")))
    res = result(state)
    assert res["ending"] == "dead_end" and res["winner"] == 1  # 6 pips against 11
    assert res["multiplier"] == {"name": "single", "value": 1}
    assert not [e for e in events if e["type"] == "lewat"]


def test_g8_dead_end_with_all_28_tiles_dealt():
    # four players: the round blocks when both ends show 6 and all seven 6s are on the table
    hands = [
        [[6, 6], [2, 3], [4, 5], [0, 0], [0, 2], [0, 3], [0, 4]],
        [[1, 6], [0, 6], [5, 6], [0, 5], [1, 1], [1, 2], [1, 3]],
        [[2, 6], [3, 6], [1, 4], [1, 5], [2, 2], [2, 4], [2, 5]],
        [[0, 1], [4, 6], [3, 3], [3, 4], [3, 5], [4, 4], [5, 5]],
    ]
    moves = [
        (0, put([6, 6])),
        (1, put([1, 6], "left")),
        (2, put([2, 6], "right")),
        (3, put([0, 1], "left")),
        (0, put([2, 3], "right")),
        (1, put([0, 6], "left")),
        (2, put([3, 6], "right")),
        (3, put([4, 6], "right")),
        (0, put([4, 5], "right")),
    ]
    state, _ = play(start(hands), *moves)
    assert RS.outcome(state) is None  # [5|6] is still out: seat 1 can play
    state, events = play(state, (1, put([5, 6], "right")))
    res = result(state)
    assert RS.view(state, None)["ends"] == {"left": 6, "right": 6}
    assert (res["ending"], res["winner"]) == ("dead_end", 0)  # 9 pips, the fewest
    assert [e["type"] for e in events] == ["played", "round_over"]


def test_g8_tie_break_fewest_tiles():
    state = start([[[4, 4], [0, 6]], [[4, 5], [0, 2], [1, 3]]])
    state, _ = play(state, (0, put([4, 4])), (1, put([4, 5], "right")))
    assert result(state)["winner"] == 0  # 6 pips each, one tile against two


def test_g8_tie_break_smallest_tops():
    state = start([[[6, 6], [0, 5], [2, 3]], [[1, 5], [0, 4]]])
    state, _ = play(state, (0, put([6, 6])))
    res = result(state)
    assert res["ending"] == "dead_end" and res["winner"] == 1  # tops [0, 1] < [0, 2]


def test_g8_tie_break_smallest_bottoms():
    state = start([[[2, 2], [0, 6], [1, 3]], [[0, 4], [1, 5]]])
    state, _ = play(state, (0, put([2, 2])))
    assert result(state)["winner"] == 0  # tops equal, bottoms [3, 6] < [4, 5]


def test_g8_full_tie_goes_to_first_in_turn_order_from_the_last_player():
    hands = [[[3, 3], [0, 4], [1, 5]], [[2, 3], [0, 6], [4, 6]], [[0, 5], [1, 4]]]
    state = start(hands)
    state, _ = play(state, (0, put([3, 3])), (1, put([2, 3], "left")))
    # seats 0 and 2 tie on every level; counting from seat 1 (last tile) seat 2 comes first
    assert result(state)["winner"] == 2


def test_g8_going_out_beats_dead_end():
    state = start([[[1, 1]], [[5, 6], [2, 3]]])
    state, _ = play(state, (0, put([1, 1])))
    res = result(state)
    assert res["ending"] == "out" and res["winner"] == 0


# --- G-9 multipliers ----------------------------------------------------------------------------


def test_g9_double_non_double_matching_one_way():
    state = start([[[3, 3], [0, 0]], [[3, 5]]])
    state, _ = play(state, (0, put([3, 3])), (1, put([3, 5], "left")))
    assert result(state)["multiplier"] == {"name": "double", "value": 2}  # ends 3,3: not x4


def test_g9_triple_double_matching_one_way():
    state = start([[[3, 4], [0, 0]], [[4, 4]]])
    state, _ = play(state, (0, put([3, 4])), (1, put([4, 4], "right")))
    assert result(state)["multiplier"] == {"name": "triple", "value": 3}  # ends 3 .. 4


def test_g9_quartet_connects_both_sides():
    state = start([[[1, 3], [3, 5]], [[1, 5], [6, 6]]])
    state, _ = play(state, (0, put([1, 3])), (1, put([1, 5], "left")), (0, put([3, 5], "right")))
    assert result(state)["multiplier"] == {"name": "quartet", "value": 4}


def test_g9_quintet_double_on_both_ends_equal():
    hands = [[[4, 6], [2, 4], [4, 4]], [[2, 6], [0, 0], [0, 1]]]
    state, _ = play(
        start(hands),
        (0, put([4, 6])),
        (1, put([2, 6], "right")),
        (0, put([2, 4], "right")),
        (1, PASS),
        (0, put([4, 4], "right")),
    )
    assert result(state)["multiplier"] == {"name": "quintet", "value": 5}


def test_g9_single_is_dead_end():
    state = start([[[1, 1], [5, 6]], [[1, 2], [3, 3]]])
    state, _ = play(state, (0, put([1, 1])), (1, put([1, 2], "right")))
    assert result(state)["multiplier"]["value"] == 1


def test_g9_a_non_double_that_is_first_and_last_tile_scores_double():
    state = RS.new_state(
        {"opener": "previous_winner", "previous_winner": 0}, 2, 1, hands=[[[1, 2]], [[5, 6]]]
    )
    state, _ = play(state, (0, put([1, 2])))
    res = result(state)
    assert (res["winner"], res["ending"]) == (0, "out")
    assert res["multiplier"] == {"name": "double", "value": 2}
    assert [p["amount"] for p in res["payments"]] == [10 * 2]  # G-10, default stake 10


def test_g9_a_double_that_is_first_and_last_tile_scores_triple():
    state, _ = play(start([[[3, 3]], [[5, 6]], [[0, 1]]]), (0, put([3, 3])))
    assert result(state)["multiplier"] == {"name": "triple", "value": 3}


@pytest.mark.parametrize(
    "hands, options",
    [
        ([[], [[5, 6]]], {"opener": "previous_winner", "previous_winner": 0}),
        ([[[1, 2]], []], {"opener": "previous_winner", "previous_winner": 1}),
        ([[], [], []], {}),  # a random opener (G-2) holds no tile either
    ],
)
def test_g2_g9_an_exact_deal_whose_opener_holds_no_tile_is_refused(hands, options):
    with pytest.raises(BadOptions) as err:
        RS.new_state(options, len(hands), 1, hands=hands)
    assert err.value.field == "hands"


# --- G-10 settlement ----------------------------------------------------------------------------


def test_g10_normal_field_pays_stake_times_multiplier():
    hands = [[[1, 3], [3, 5]], [[1, 5], [6, 6]], [[2, 2], [0, 0]]]
    state = start(hands, stake=10, stacks=[100, 100, 100])
    state, _ = play(
        state, (0, put([1, 3])), (1, put([1, 5], "left")), (2, PASS), (0, put([3, 5], "right"))
    )
    payments = [p for p in result(state)["payments"] if p["kind"] == "settlement"]
    assert [(p["payer"], p["amount"]) for p in payments] == [(1, 40), (2, 40)]
    assert state.stacks == (100 + 80, 100 + 10 - 40, 100 - 10 - 40)  # seat 2's Lewat to 1


def test_g10_bet_field_pays_stake_times_multiplier_times_pips():
    hands = [[[1, 3], [3, 5]], [[1, 5], [6, 6]], [[2, 2], [0, 1]]]
    state = start(hands, stake=2, field="bet", stacks=[500, 500, 500])
    state, _ = play(
        state, (0, put([1, 3])), (1, put([1, 5], "left")), (2, PASS), (0, put([3, 5], "right"))
    )
    payments = {p["payer"]: p for p in result(state)["payments"] if p["kind"] == "settlement"}
    assert payments[1]["amount"] == 2 * 4 * 12 and payments[1]["pips"] == 12
    assert payments[2]["amount"] == 2 * 4 * 5
    outcome = RS.outcome(state)
    assert outcome.winners == (0,) and sum(outcome.scores) == 0


def test_g10_g11_round_result_carries_the_settlements_the_event_shows():
    # bet table, stake 2: seat 2 passes (Lewat 2 to seat 1), seat 0 goes out with [3|5] on
    # ends 5 and 3 (quartet, x4). Seat 1 owes 2 x 4 x 12 = 96 but holds 52 (G-11); seat 2 owes
    # 2 x 4 x 1 = 8.
    hands = [[[1, 3], [3, 5]], [[1, 5], [6, 6]], [[0, 1]]]
    state = start(hands, stake=2, field="bet", stacks=[500, 50, 500])
    state, _ = play(state, (0, put([1, 3])), (1, put([1, 5], "left")), (2, PASS))
    step = RS.apply(state, 0, RS.parse_action(put([3, 5], "right")))
    (over,) = [e for e in step.events if e["type"] == "round_over"]
    settlements = (
        Payment("settlement", 1, 0, amount=52, shortfall=44, pips=12),
        Payment("settlement", 2, 0, amount=8, shortfall=0, pips=1),
    )
    detail = {k: v for k, v in over.items() if k != "type"}
    assert step.rounds == (RoundResult(None, 0, "out", 4, detail, settlements),)
    assert [p.to_json() for p in settlements] == [
        p for p in over["payments"] if p["kind"] == "settlement"
    ]
    assert step.payments == ()  # the settlement is the round's, not a payment in the round
    assert step.state.stacks == (500 + 60, 0, 500 - 2 - 8)


# --- G-11 chips never negative ------------------------------------------------------------------


def test_g11_payment_capped_by_stack_with_shortfall_recorded():
    hands = [[[5, 5], [5, 6], [6, 6]], [[0, 1], [1, 2]]]
    state = start(hands, stake=10, stacks=[100, 10])
    state, events = play(state, (0, put([5, 5])), (1, PASS), (0, put([5, 6])), (1, PASS))
    lewat = [e for e in events if e["type"] == "lewat"]
    assert [(e["amount"], e["shortfall"]) for e in lewat] == [(10, 0), (0, 10)]
    state, _ = play(state, (0, put([6, 6], "left")))  # triple: 30 due, nothing left to pay
    pay = [p for p in result(state)["payments"] if p["kind"] == "settlement"]
    assert [(p["amount"], p["shortfall"]) for p in pay] == [(0, 30)]
    assert state.stacks == (110, 0)


def test_g11_settlement_capped_by_stack():
    hands = [[[1, 3], [3, 5]], [[1, 5], [6, 6]]]
    state = start(hands, stake=10, stacks=[100, 25])
    state, _ = play(state, (0, put([1, 3])), (1, put([1, 5], "left")), (0, put([3, 5], "right")))
    pay = [p for p in result(state)["payments"] if p["kind"] == "settlement"][0]
    assert (pay["amount"], pay["shortfall"]) == (25, 15)
    assert state.stacks == (125, 0)


def test_g11_a_seat_below_one_stake_cannot_start_a_round():
    with pytest.raises(BadOptions) as err:
        RS.new_state({"stake": 10, "stacks": [100, 9]}, 2, seed=1)
    assert err.value.field == "stacks"


# --- G-12 rounds --------------------------------------------------------------------------------


def test_g12_next_round_starts_from_previous_stacks_and_winner():
    state = start([[[1, 3], [3, 5]], [[1, 5], [6, 6]]], stake=10, stacks=[100, 100])
    state, _ = play(state, (0, put([1, 3])), (1, put([1, 5], "left")), (0, put([3, 5], "right")))
    res = result(state)
    nxt = RS.new_state(
        {
            "stake": 10,
            "stacks": res["stacks"],
            "opener": "previous_winner",
            "previous_winner": res["winner"],
        },
        2,
        seed=8,
    )
    assert nxt.stacks == (140, 60) and RS.to_act(nxt) == 0


# --- O-2 hidden information and options ---------------------------------------------------------


def test_o2_views_show_own_hand_counts_of_others_and_no_seed():
    hands = [[[1, 3], [3, 5]], [[1, 5], [6, 6], [0, 0]]]
    state = start(hands)
    mine = RS.view(state, 0)
    assert mine["hand"] == [[1, 3], [3, 5]] and mine["hand_counts"] == [2, 3]
    assert mine["legal"] and RS.view(state, 1)["legal"] == []
    spectator = RS.view(state, None)
    assert spectator["hand"] is None and spectator["legal"] == []
    assert "seed" not in mine and "seed" not in spectator


@pytest.mark.parametrize(
    "options, field",
    [
        ({"stake": 0}, "stake"),
        ({"stake": "10"}, "stake"),
        ({"field": "poker"}, "field"),
        ({"opener": "me"}, "opener"),
        ({"stacks": [100]}, "stacks"),
        ({"colour": "red"}, "colour"),
        ({"previous_winner": 5}, "previous_winner"),
    ],
)
def test_bad_options_name_the_field(options, field):
    with pytest.raises(BadOptions) as err:
        RS.new_state(options, 2, seed=1)
    assert err.value.field == field and err.value.code == "bad_options"


def test_bad_seat_count_is_refused():
    with pytest.raises(BadOptions):
        RS.new_state({}, 5, seed=1)


@pytest.mark.parametrize(
    "raw",
    [
        None,
        [],
        {"kind": "play"},
        {"kind": "play", "tile": [1, 7], "end": "left"},
        {"kind": "play", "tile": [1, 2], "end": "middle"},
        {"kind": "pass", "extra": 1},
        {"kind": "play", "tile": [1, "2"], "end": "left"},
        {"kind": "play", "tile": [1, 2, 3], "end": "left"},
    ],
)
def test_malformed_actions_are_illegal_action_errors(raw):
    with pytest.raises(IllegalAction):
        RS.parse_action(raw)


def test_dump_load_refuses_a_corrupt_state():
    data = RS.dump(RS.new_state({}, 2, seed=3))
    data["turn"] = "zero"
    with pytest.raises(ValueError):
        RS.load(data)


@pytest.mark.parametrize(
    "tile", [[2, "3"], [2, 3, 4], [2], [True, 3], [2.0, 3], "2|3", None], ids=repr
)
def test_load_refuses_a_tile_that_is_not_two_whole_numbers(tile):
    """A snapshot's tile is checked as strictly as any other field (app/games/codec.py)."""
    data = RS.dump(RS.new_state({}, 2, seed=3))
    data["hands"][0][0] = tile
    with pytest.raises(ValueError, match=r"state\.hands"):
        RS.load(data)


def test_load_ignores_the_last_events_of_a_dump_from_before_they_were_dropped():
    state, events = play(
        start([[[5, 5], [5, 6], [0, 0]], [[0, 1], [1, 2]]]), (0, put([5, 5])), (1, PASS)
    )
    data = RS.dump(state)
    assert "last_events" not in data and "last_events" not in RS.view(state, 0)
    assert RS.load({**data, "last_events": events}) == state  # a table live in Redis
    with pytest.raises(ValueError):
        RS.load({**data, "history": events})
