"""Domino Cross: a Draw game opened by a spinner whose four sides must be filled first.

docs/rules.md section 3 (C-1 .. C-10). One state is a whole *match*: when a round ends, ``apply``
scores it (C-9) and, unless someone reached the target (C-10), deals the next round at once
from ``rng_for(seed, "deal", round_no, redeal_no)`` (rounds count from 1; ``hands=``/``stock=``
fix round 1 only).

The layout is the spinner and four arms ``n e s w``. Each arm is a tuple of oriented pieces
``(inner, outer)``: the first piece's inner number is the spinner's, and the arm's open end is
the last piece's outer number. While the cross is incomplete (C-4) only the spinner's empty
sides accept a tile, each showing the spinner's number; afterwards every arm end is open, and a
double played there simply extends its arm.

Readings of docs/rules.md this module takes:
- Drawing (C-6, C-7) is allowed while the boneyard holds more than two tiles, so the last two
  are never drawn and count for nobody: with 2 players (7 each) 12 of the 14 undealt tiles can
  be drawn, with 3 players (5 each) 11 of 13, with 4 players 6 of 8.
- A player who cannot play has exactly one legal action: ``draw`` while drawing is allowed,
  otherwise ``pass`` (the service applies either at once, O-4). A drawn tile that fits is then
  the only thing that player may play, at once; one that does not fit ends the turn in the same
  action ("drew", then "passed"), except with ``draw_until_playable`` once the cross is complete,
  where the same player draws again while drawing is allowed.
- The round is blocked (C-8) the moment an action leaves the boneyard at two tiles or fewer and
  no hand holds a tile that fits an open end; it is scored at once, without any passes.
- Blocked scoring (C-9): the single lowest pip total scores the sum of all other hands minus its
  own (the seed's 30 - 13 = 17 generalised to 3 and 4 players); a tie for lowest scores nothing.
- No double anywhere (C-2): the deal is discarded and redealt with the next ``redeal_no``; given
  ``hands=`` without a double are redealt the same way.
- ``hands=`` is taken as given (any sizes), for tests and replays, as in Gaple.
- Views never show a past round's hands once the next round is dealt (those tiles are in play
  again): the "round_over" event carries them, the stored ``last_round`` keeps only the figures.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import tiles as T
from .base import (
    JSON,
    Action,
    Deal,
    GameDescriptor,
    Option,
    Outcome,
    RawTile,
    RoundResult,
    Ruleset,
    Step,
    action_fields,
    action_kind,
    evolve,
    hidden_from,
)
from .errors import IllegalAction
from .rng import rng_for

ARMS = ("n", "e", "s", "w")
KEEP_IN_BONEYARD = 2  # C-7
Tile = tuple[int, int]


def hand_size(n_seats: int) -> int:
    """C-1: 7 tiles each for 2 players, 5 for 3 or 4."""
    return 7 if n_seats == 2 else 5


@dataclasses.dataclass(frozen=True)
class Play(Action):
    """Play a tile on an arm; the spinner itself is played with ``arm`` None (no JSON field)."""

    kind = "play"
    tile: tuple[int, int]
    arm: str | None = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": self.kind, "tile": T.to_json(self.tile)}
        if self.arm is not None:
            out["arm"] = self.arm
        return out


@dataclasses.dataclass(frozen=True)
class Draw(Action):
    kind = "draw"


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind = "pass"


DRAW = Draw()
PASS = Pass()
PLAYS = {(t, arm): Play(t, arm) for t in T.DOUBLE_SIX for arm in (*ARMS, None)}


@dataclasses.dataclass(frozen=True)
class State:
    options: dict[str, Any]
    seed: int
    round_no: int
    redeal_no: int
    opener: int
    hands: tuple[tuple[tuple[int, int], ...], ...]
    boneyard: tuple[tuple[int, int], ...]
    spinner: tuple[int, int] | None
    arms: tuple[tuple[tuple[int, int], ...], ...]
    turn: int | None
    drawn: tuple[int, int] | None
    draws: int
    scores: tuple[int, ...]
    rounds: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def complete(self) -> bool:
        """C-4: all four sides of the spinner hold a tile."""
        return all(self.arms)

    def open_ends(self) -> dict[int, int]:
        return open_ends(self.spinner, self.arms)

    @property
    def may_draw(self) -> bool:
        return len(self.boneyard) > KEEP_IN_BONEYARD  # C-7


Arm = tuple[tuple[int, int], ...]  # oriented pieces (inner, outer), from the spinner out


def open_ends(spinner: Tile | None, arms: tuple[Arm, ...]) -> dict[int, int]:
    """Arm index -> the number a tile must show to go there now (C-4)."""
    if spinner is None:
        return {}
    n, e, s, w = arms
    if n and e and s and w:
        return {0: n[-1][1], 1: e[-1][1], 2: s[-1][1], 3: w[-1][1]}
    return {a: spinner[0] for a, arm in enumerate(arms) if not arm}


def highest_double(hand: Iterable[Tile]) -> Tile | None:
    doubles = [t for t in hand if T.is_double(t)]
    return max(doubles) if doubles else None


def opening(hand: Iterable[Tile]) -> Play:
    """C-2: the opener's only move, its highest double played as the spinner (``deal_round``
    makes sure the opener holds one)."""
    top = highest_double(hand)
    assert top is not None, "the opener holds a double (C-2)"
    return PLAYS[top, None]


def deal_round(
    n: int,
    seed: int,
    round_no: int,
    hands: Deal | None = None,
    stock: Sequence[RawTile] | None = None,
) -> tuple[tuple[T.Hand, ...], tuple[Tile, ...], int, int]:
    """C-1/C-2: (hands, boneyard, redeal_no, opener); redealt until someone holds a double."""
    redeal_no = 0
    while True:
        rng = rng_for(seed, "deal", round_no, redeal_no)
        if hands is not None and redeal_no == 0:
            dealt, rest = T.deal_exact(T.DOUBLE_SIX, hands, n, rng, stock=stock)
        else:
            dealt, rest = T.deal(T.DOUBLE_SIX, [hand_size(n)] * n, rng)
        best = [(highest_double(h), s) for s, h in enumerate(dealt) if highest_double(h)]
        if best:
            return dealt, rest, redeal_no, max(best)[1]
        redeal_no += 1


def _fitting(hand: Iterable[Tile], ends: dict[int, int]) -> list[Play]:
    return [PLAYS[t, ARMS[a]] for t in hand for a, v in ends.items() if v in t]


def round_points(
    hands: Sequence[T.Hand],
    ending: str,
    out: int | None,
) -> tuple[int | None, int]:
    """C-9: (winner or None, points) of a round that ended by domino or block."""
    pips = [T.hand_pips(h) for h in hands]
    if ending == "domino":
        return out, sum(pips)
    low = min(pips)
    if pips.count(low) > 1:
        return None, 0
    return pips.index(low), sum(pips) - 2 * low


CrossAction = Play | Draw | Pass


class Cross(Ruleset[State, CrossAction]):
    descriptor = GameDescriptor(
        "cross",
        2,
        4,
        options=(
            Option("target", 100, 1, 10_000, help=True),
            Option("draw_until_playable", False, help=True),
        ),
    )
    state_type = State

    def new_state(
        self,
        options: Mapping[str, Any],
        n_seats: int,
        seed: int,
        *,
        hands: Deal | None = None,
        stock: Sequence[RawTile] | None = None,
    ) -> State:
        opts = self.parse_options(options, n_seats)
        state = State(
            options=opts,
            seed=seed,
            round_no=0,
            redeal_no=0,
            opener=0,
            hands=(),
            boneyard=(),
            spinner=None,
            arms=(),
            turn=None,
            drawn=None,
            draws=0,
            scores=(0,) * n_seats,
            rounds=(),
            result=None,
        )
        return self._deal(state, n_seats, hands, stock)[0]

    def _deal(
        self,
        state: State,
        n: int,
        hands: Deal | None = None,
        stock: Sequence[RawTile] | None = None,
    ) -> tuple[State, tuple[JSON, ...]]:
        round_no = state.round_no + 1
        dealt, rest, redeal_no, opener = deal_round(n, state.seed, round_no, hands, stock)
        new = evolve(
            state,
            round_no=round_no,
            redeal_no=redeal_no,
            opener=opener,
            hands=dealt,
            boneyard=rest,
            spinner=None,
            arms=((),) * 4,
            turn=opener,
            drawn=None,
            draws=0,
        )
        event = {"type": "round_started", "round": round_no, "opener": opener, "redeals": redeal_no}
        return new, (event,)

    def to_act(self, state: State) -> int | None:
        return state.turn

    def legal_actions(self, state: State, seat: int) -> tuple[CrossAction, ...]:
        if state.turn != seat:
            return ()
        if state.spinner is None:  # C-2: the highest double opens, nothing else
            return (opening(state.hands[seat]),)
        hand = (state.drawn,) if state.drawn else state.hands[seat]
        plays = _fitting(hand, state.open_ends())
        if plays:
            return tuple(plays)  # C-5
        return (DRAW,) if state.may_draw else (PASS,)  # C-6, C-7

    def is_legal(self, state: State, seat: int, action: CrossAction) -> bool:
        """The same answer as ``action in legal_actions``, without listing them (hot path)."""
        hand = state.hands[seat]
        if state.spinner is None:
            return action == opening(hand)
        ends = state.open_ends()
        if isinstance(action, Play):
            if state.drawn is not None and action.tile != state.drawn:  # C-6
                return False
            end = ends.get(ARMS.index(action.arm)) if action.arm in ARMS else None
            return end is not None and end in action.tile and action.tile in hand
        if state.drawn is not None or _fitting(hand, ends):
            return False
        return isinstance(action, Draw) == state.may_draw

    def parse_action(self, raw: Any) -> CrossAction:
        kind = action_kind(raw, ("play", "draw", "pass"))
        if kind != "play":
            action_fields(raw)
            return DRAW if kind == "draw" else PASS
        if "arm" not in raw:
            (tile,) = action_fields(raw, "tile")
            return Play(T.parse_tile(tile, 6))
        tile, arm = action_fields(raw, "tile", "arm")
        if arm not in ARMS:
            raise IllegalAction("arm must be one of 'n', 'e', 's', 'w'")
        return Play(T.parse_tile(tile, 6), arm)

    def refusal(self, state: State, seat: int, action: CrossAction) -> str:
        hand = state.hands[seat]
        if state.spinner is None:
            first = list(opening(hand).tile)
            return f"the round opens with the highest double, {first}, played alone (C-2)"
        if state.drawn and action != Play(state.drawn, getattr(action, "arm", None)):
            return f"you must play the tile you just drew, {list(state.drawn)}, at once (C-6)"
        can_play = any(isinstance(a, Play) for a in self.legal_actions(state, seat))
        if not isinstance(action, Play):
            if can_play:
                return "you hold a playable tile, so you must play (C-5)"
            if isinstance(action, Draw):
                return "the boneyard is down to its last two tiles: nobody may draw (C-7)"
            return "you cannot play: draw a tile from the boneyard (C-6)"
        t = action.tile
        if t not in hand:
            return f"you do not hold {list(t)}"
        if action.arm is None:
            return "name the arm to play on: 'n', 'e', 's' or 'w'"
        ends = state.open_ends()
        arm = ARMS.index(action.arm)
        if arm not in ends:
            empty = ", ".join(ARMS[a] for a in ends)
            return (
                f"the cross is not complete: only the spinner's empty sides ({empty}) take a "
                f"tile (C-4)"
            )
        return f"{list(t)} does not match the {action.arm} arm's open end {ends[arm]}"

    # --- applying actions ------------------------------------------------------------------
    # Each move builds its changed fields and copies the state once, in ``_step``.
    def _apply(self, state: State, seat: int, action: CrossAction) -> Step[State]:
        if isinstance(action, Play):
            return self._play(state, seat, action)
        if isinstance(action, Draw):
            return self._draw(state, seat)
        return self._step(state, ({"type": "passed", "seat": seat},), turn=(seat + 1) % state.n)

    def _play(self, state: State, seat: int, action: Play) -> Step[State]:
        t = action.tile
        hands = list(state.hands)
        hands[seat] = T.remove(hands[seat], t)
        played: JSON = {"type": "played", "seat": seat, "tile": T.to_json(t)}
        if action.arm is None:
            changes: JSON = {"spinner": t}
        else:
            a = ARMS.index(action.arm)
            end = state.open_ends()[a]
            arms = state.arms
            changes = {
                "arms": arms[:a] + (arms[a] + ((end, T.other_end(t, end)),),) + arms[a + 1 :]
            }
            played["arm"] = action.arm
        changes.update(hands=tuple(hands), drawn=None)
        if not hands[seat]:  # C-8 domino
            return self._end_round(evolve(state, **changes), "domino", seat, (played,))
        return self._next_turn(state, seat, (played,), changes)

    def _draw(self, state: State, seat: int) -> Step[State]:
        """C-6: draw the top tile; play it at once if it fits, else the turn passes."""
        t, boneyard = state.boneyard[0], state.boneyard[1:]
        hands = list(state.hands)
        hands[seat] = T.sort_hand(hands[seat] + (t,))
        changes: JSON = {"hands": tuple(hands), "boneyard": boneyard, "draws": state.draws + 1}
        events: tuple[JSON, ...] = ({"type": "drew", "seat": seat, "boneyard": len(boneyard)},)
        if _fitting((t,), state.open_ends()):
            return self._step(state, events, drawn=t, **changes)
        if (
            state.options["draw_until_playable"]
            and state.complete
            and len(boneyard) > KEEP_IN_BONEYARD
        ):
            return self._step(state, events, **changes)
        return self._next_turn(state, seat, (*events, {"type": "passed", "seat": seat}), changes)

    def _next_turn(
        self, state: State, seat: int, events: tuple[JSON, ...], changes: JSON
    ) -> Step[State]:
        """Hand the turn on, unless the round is blocked (C-8): nobody may draw (C-7) and no
        hand holds a tile that fits an open end."""
        if len(changes.get("boneyard", state.boneyard)) <= KEEP_IN_BONEYARD:
            after = open_ends(
                changes.get("spinner", state.spinner), changes.get("arms", state.arms)
            )
            numbers = set(after.values())
            if not any(a in numbers or b in numbers for h in changes["hands"] for a, b in h):
                return self._end_round(evolve(state, **changes), "blocked", None, events)
        return self._step(state, events, turn=(seat + 1) % state.n, **changes)

    def _end_round(
        self, state: State, ending: str, out: int | None, events: tuple[JSON, ...]
    ) -> Step[State]:
        """C-9 scoring, then C-10: the match ends or the next round is dealt at once."""
        winner, points = round_points(state.hands, ending, out)
        scores = list(state.scores)
        if winner is not None:
            scores[winner] += points
        summary = {
            "round": state.round_no,
            "ending": ending,
            "winner": winner,
            "points": points,
            "pips": [T.hand_pips(h) for h in state.hands],
            "draws": state.draws,
            "redeals": state.redeal_no,
        }
        hands = [T.hand_json(h) for h in state.hands]
        detail = {**summary, "scores": scores, "hands": hands}
        # the finished cross, public (O-2), for the pause before the next round (O-6)
        board = {"cross": self.view(state, None)["cross"]}
        over_event = {"type": "round_over", **detail, "board": board}
        ended = (RoundResult(state.round_no, winner, ending, None, detail),)
        new = evolve(
            state, scores=tuple(scores), rounds=state.rounds + (summary,), turn=None, drawn=None
        )
        events = (*events, over_event)
        if winner is not None and scores[winner] >= state.options["target"]:
            result = {"winner": winner, "scores": scores, "rounds": len(new.rounds), "hands": hands}
            match_over = {"type": "match_over", "winner": winner, "scores": scores}
            return self._step(evolve(new, result=result), (*events, match_over), ended=ended)
        new, started = self._deal(new, state.n)
        return self._step(new, (*events, *started), ended=ended)

    def _step(
        self,
        state: State,
        events: tuple[JSON, ...],
        ended: tuple[RoundResult, ...] = (),
        **changes: Any,
    ) -> Step[State]:
        """The new state with ``changes``, and the move's events; ``ended``: the round that
        ended in it."""
        return Step(evolve(state, **changes), tuple(events), (), ended)

    # --- reading the state -----------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(
            winners=(state.result["winner"],),
            scores=state.scores,
            detail={"target": state.options["target"], "rounds": list(state.rounds)},
        )

    def view(self, state: State, seat: int | None) -> JSON:
        """O-2: own hand, the cross, counts, scores; the drawn tile only to its drawer."""
        ends = state.open_ends()
        arms = {}
        for a, arm in enumerate(state.arms):
            end = arm[-1][1] if arm else (state.spinner[0] if state.spinner else None)
            arms[ARMS[a]] = {"tiles": [list(p) for p in arm], "end": end, "open": a in ends}
        own = seat is not None and seat == state.turn
        return {
            **self.view_header(state, seat),
            "round": state.round_no,
            "target": state.options["target"],
            "draw_until_playable": state.options["draw_until_playable"],
            "opener": state.opener,
            "hand": T.hand_json(state.hands[seat]) if seat is not None else None,
            "drawn": {"tile": T.to_json(state.drawn)} if own and state.drawn else None,
            "cross": {
                "spinner": {"tile": T.to_json(state.spinner)} if state.spinner else None,
                "complete": state.complete,
                "arms": arms,
            },
            "boneyard": len(state.boneyard),
            "may_draw": state.may_draw,
            "hand_counts": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "last_round": state.rounds[-1] if state.rounds else None,
            "result": state.result,
        }

    def all_tiles(self, state: State) -> list[Tile]:
        board = [state.spinner] if state.spinner else []
        board += [(a, b) if a <= b else (b, a) for arm in state.arms for a, b in arm]
        return board + [t for h in state.hands for t in h] + list(state.boneyard)

    def hidden_tiles(self, state: State, seat: int | None) -> set[Tile]:
        # the boneyard is never shown, not even after the match
        return hidden_from(seat, state.hands, state.boneyard, hands_shown=state.result is not None)

    def match_stats(self, state: State) -> JSON:
        """Per-match figures for ``python -m app simulate``."""
        rounds = state.rounds
        return {
            "rounds": len(rounds),
            "blocked_rounds": sum(r["ending"] == "blocked" for r in rounds),
            "tied_blocks": sum(r["winner"] is None for r in rounds),
            "redeals": sum(r["redeals"] for r in rounds),
            "draws": sum(r["draws"] for r in rounds),
            "winning_score": max(state.scores),
        }


RULESET = Cross()
