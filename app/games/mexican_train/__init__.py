"""Mexican Train ("Domino Double"): docs/rules.md section 4 (T-1 .. T-13) with the shared O-rules.

One state is a whole match of ``rounds`` rounds (T-2, T-13). The package splits the engine:
``model`` (actions, state, the deal and the engine), ``turns`` (legality and the effect of each
action), ``ruleset`` (options, views, the ruleset contract).

Readings of the rules where docs/rules.md leaves room [decided]:
- T-3 happens inside ``new_state`` and inside the ``apply`` that ends a round: nobody decides
  anything, so the holder's placement, or the draw for the engine (clockwise from seat
  (round - 1) mod n, one tile each, tiles other than the engine kept in hand), is done at once
  and reported by ``dealt`` / ``drew`` (no tile named) / ``engine_placed`` events.
- Forced play: a player who can play must play; ``draw`` is legal only with no playable tile,
  ``pass`` (marker out) only after drawing a tile that does not fit, or with an empty boneyard.
- After drawing, only the drawn tile may be played (T-8 "draws one tile and must play it"):
  the player could not play anything before drawing, so no other tile of theirs can fit now.
- T-7 run: a player who can start their train must play at least one tile; after that they may
  ``end_turn`` or go on, and the turn ends by itself when nothing more fits. A player who drew on
  the first turn plays only the drawn tile (plus a double's cover): the run is over. A first turn
  that begins with a double to cover (T-9) is spent covering it, with no run after it.
  With ``first_turn_multi: false`` the first turn is an ordinary turn (T-6, T-8).
- A player who cannot play puts out the marker whether or not they drew; the marker of a player
  who could not start their train lies by the empty slot, and that empty train is then open to
  others like any train with a marker (they may start it).
- T-9: after a double the extra play is owed (no ``end_turn`` before it); with ``satisfy`` it
  must cover that double; with ``chain`` it may go on any available train, another double
  included. The covering tile is never a double, so a player who covers an earlier player's
  double ends their turn with that one play. Several uncovered doubles (``chain``) are covered
  one per play, oldest first; only the oldest one's train is open meanwhile.
- T-10: a player goes out on their first turn only while others have first turns left; then the
  turn passes on and the round is scored after the last first turn. A double left uncovered by
  that player must be covered by the next players as usual.
- T-11: the round is blocked when, with the boneyard empty, every player has passed in turn
  with no tile played *and no new marker put out* in between. A marker put out opens that
  train to the others, so a pass made before it no longer shows that its player is stuck;
  counting from the newest marker, the round ends exactly when nobody can play any more
  (the literal count could end a round while someone holds a tile for a newly opened train).
- T-12: ties for the lowest total share the win. ``Outcome.scores`` are the totals (lower is
  better).
"""

from .ruleset import RULESET, MexicanTrain

__all__ = ["RULESET", "MexicanTrain"]
