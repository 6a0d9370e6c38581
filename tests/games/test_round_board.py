"""O-6: the games that deal the next round in the step that ends one (Moon, Cross, Mexican
Train) keep the finished round's public board in its ``round_over`` event, so the table can show
it until the next round starts. It is what every seat saw at the end (the last tile included)
and names no tile that was never played (O-2, M-12: no hand, widow, discard or boneyard)."""

from __future__ import annotations

import random

import pytest

from app.games.registry import get_ruleset as get

from .playout import tiles_in


def first_round_end(game: str, seats: int, seed: int):
    """Random legal moves to the first round's end: (the state before, the step, the played
    tiles of that round)."""
    rs = get(game)
    rnd = random.Random(seed)
    state = rs.new_state({}, seats, seed)
    played: set[tuple[int, int]] = set()
    for _ in range(2000):
        seat = rs.to_act(state)
        action = rnd.choice(rs.legal_actions(state, seat))
        step = rs.apply(state, seat, action)
        tile = getattr(action, "tile", None)
        if tile is not None:
            played.add((min(tile), max(tile)))
        if any(e["type"] == "round_over" for e in step.events):
            return state, step, played
        if any(e["type"] in ("dealt", "round_started", "all_passed") for e in step.events):
            played = set()  # a redeal: nothing of the earlier deal is on the board
        state = step.state
    raise AssertionError("no round ended")


@pytest.mark.parametrize(
    ("game", "seats", "parts"),
    [
        ("mexican_train", 4, {"hub", "trains", "mexican"}),
        ("cross", 3, {"cross"}),
        ("moon", 4, {"phase", "bids", "contract", "trump", "last_trick", "tricks_won"}),
        ("moon", 3, {"phase", "bids", "contract", "trump", "last_trick", "tricks_won"}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_o6_round_over_keeps_the_finished_public_board(game, seats, parts, seed):
    before, step, played = first_round_end(game, seats, seed)
    (over,) = [e for e in step.events if e["type"] == "round_over"]
    board = over["board"]
    assert parts <= set(board), sorted(board)
    shown = set(tiles_in(board))
    assert shown, "the finished board shows its tiles"
    # only tiles played this round (and a hub's engine), never one still hidden in a hand
    engine = {tuple(board["hub"]["tile"])} if "hub" in board else set()
    assert shown <= played | engine, sorted(shown - played - engine)
    # the last tile played is on it: the board is the finished one, not the one before
    assert played and shown & played
    # the next round's view does not show the finished board (it is dealt anew)
    view = get(game).view(step.state, None)
    assert any(view.get(k) != board[k] for k in parts)


def test_m12_the_moon_board_is_the_last_trick_in_play_order_with_its_winner():
    _, step, played = first_round_end("moon", 4, 7)
    (over,) = [e for e in step.events if e["type"] == "round_over"]
    last = over["board"]["last_trick"]
    assert len(last["tiles"]) == 4 and last["winner"] in range(4)
    assert {(min(t), max(t)) for t in last["tiles"]} <= played
    assert sum(over["board"]["tricks_won"]) == 7 and over["board"]["trick"] == []
