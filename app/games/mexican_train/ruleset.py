"""The Mexican Train ruleset: options, the match state machine, views and hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import tiles as T
from ..base import (
    JSON,
    Deal,
    GameDescriptor,
    Option,
    Outcome,
    RawTile,
    Ruleset,
    Step,
    action_fields,
    action_kind,
    hidden_from,
)
from ..errors import IllegalAction
from . import turns
from .model import (
    DRAW,
    END_TURN,
    MEXICAN,
    PASS,
    TOP,
    Draw,
    EndTurn,
    Pass,
    Play,
    State,
    TrainAction,
    board_view,
    deal_round,
)

SIMPLE: dict[str, TrainAction] = {"draw": DRAW, "pass": PASS, "end_turn": END_TURN}


class MexicanTrain(Ruleset[State, TrainAction]):
    descriptor = GameDescriptor(
        "mexican_train",
        2,
        8,
        options=(
            Option("rounds", 13, 1, 13, help=True),
            Option("first_turn_multi", True, help=True),
            Option("doubles", "satisfy", choices=("satisfy", "chain")),
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
        state, _ = deal_round(opts, n_seats, seed, 1, [0] * n_seats, (), hands, stock)
        return state

    def to_act(self, state: State) -> int | None:
        return state.turn

    def legal_actions(self, state: State, seat: int) -> tuple[TrainAction, ...]:
        return turns.legal(state, seat)

    def parse_action(self, raw: Any) -> TrainAction:
        kind = action_kind(raw, ("play", "draw", "pass", "end_turn"))
        if kind != "play":
            action_fields(raw)
            return SIMPLE[kind]
        tile, train = action_fields(raw, "tile", "train")
        if train != MEXICAN and (type(train) is not int or not 0 <= train < self.max_seats):
            raise IllegalAction("train must be a seat number or 'mexican'")
        return Play(T.parse_tile(tile, TOP), train)

    def refusal(self, state: State, seat: int, action: TrainAction) -> str:
        can_play = bool(turns.plays(state, seat, state.hands[seat]))
        if state.drawn is not None and not isinstance(action, Play):
            return f"you drew {list(state.drawn)}: play it if it fits, otherwise pass (T-8)"
        if isinstance(action, Draw):
            if not state.boneyard:
                return "the boneyard is empty: pass (T-8)"
            return "you can play a tile, so you may not draw (T-8)"
        if isinstance(action, Pass):
            return "you can play a tile, so you must" if can_play else "draw first (T-8)"
        if isinstance(action, EndTurn):
            if state.extra:
                return "you owe the extra play of your double first (T-9)"
            return "end_turn only stops a first-turn run after at least one tile (T-7)"
        return self._play_refusal(state, seat, action)

    def _play_refusal(self, state: State, seat: int, action: Play) -> str:
        t = list(action.tile)
        if action.tile not in state.hands[seat]:
            return f"you do not hold {t}"
        if state.drawn is not None and action.tile != state.drawn:
            return f"after drawing you may play only the drawn tile {list(state.drawn)} (T-8)"
        if isinstance(action.train, int) and action.train >= state.n:
            return f"there is no train {action.train}"
        k = turns.train_index(state, action.train)
        if k not in turns.available(state, seat):
            if state.uncovered and not (state.extra and state.options["doubles"] == "chain"):
                owner = state.train_name(state.uncovered[0])
                return f"the double on train {owner} must be covered first (T-9)"
            if state.first_turn[seat] and state.options["first_turn_multi"]:
                return "on your first turn you play on your own train only (T-7)"
            return f"seat {k}'s train carries no marker, so it is closed to you (T-5, T-6)"
        return f"{t} does not match the open end {state.end(k)} of train {action.train}"

    def _apply(self, state: State, seat: int, action: TrainAction) -> Step[State]:
        return turns.apply(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(
            winners=tuple(state.result["winners"]), scores=state.totals, detail=state.result
        )

    def view(self, state: State, seat: int | None) -> JSON:
        """O-2: own hand, every train, counts and scores; hands only via round_over events."""
        must = None
        if state.uncovered:
            k = state.uncovered[0]
            must = {"train": state.train_name(k), "number": state.end(k)}
        own = seat is not None and seat == state.turn
        return {
            **self.view_header(state, seat),
            "round": state.round_no,
            "rounds": state.options["rounds"],
            "doubles": state.options["doubles"],
            "first_turn_multi": state.options["first_turn_multi"],
            **board_view(state),
            "hand": T.hand_json(state.hands[seat]) if seat is not None else None,
            "drawn": {"tile": list(state.drawn)} if own and state.drawn else None,
            "must_cover": must,
            "uncovered": [
                {"train": state.train_name(k), "number": state.end(k)} for k in state.uncovered
            ],
            "first_turn": list(state.first_turn),
            "turn": {"extra": state.extra, "played": state.played, "run": state.run},
            "boneyard": len(state.boneyard),
            "hand_counts": [len(h) for h in state.hands],
            "round_scores": [dict(r) for r in state.rounds_log],
            "totals": list(state.totals),
            "result": state.result,
        }

    # --- hooks for the shared playout harness, audits and ``python -m app simulate`` ---------
    def all_tiles(self, state: State) -> list[tuple[int, int]]:
        out = [(state.engine, state.engine), *state.boneyard]
        for hand in state.hands:
            out.extend(hand)
        for train in state.trains:
            out.extend(T.tile(*p) for p in train)
        return out

    def hidden_tiles(self, state: State, seat: int | None) -> set[tuple[int, int]]:
        """Other hands and the boneyard; once the match is over the final hands are shown."""
        return hidden_from(seat, state.hands, state.boneyard, hands_shown=state.result is not None)

    def match_stats(self, state: State) -> JSON:
        log, result = state.rounds_log, state.result
        assert result is not None, "the match is not over"
        return {
            "rounds": len(log),
            "blocked_rounds": sum(r["ending"] == "blocked" for r in log),
            "winning_total": min(state.totals),
            "spread": max(state.totals) - min(state.totals),
            "shared_win": int(len(result["winners"]) > 1),
        }


RULESET = MexicanTrain()
