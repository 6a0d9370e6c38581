"""``Tables``: every action on a table, whatever asks for it (a route, a socket, a clock, a
worker), in one service. Each part lives in a module named for what it does:

- seating.py: create a table, sit with a buy-in, leave, fill with bots, rematch, quick join;
- listing.py: a table, the lobby's pages, a join code, a player's own tables;
- moves.py: a player's move, ``ready`` between rounds, a player coming back;
- clocks.py: the clocks (timeouts, bots' turns, the next round, the start countdown) and the
  chores (idle seats, closing).

All of them change a table only through its single write path (write.py, ``TableWriter``).
"""

from __future__ import annotations

from .clocks import Clocks
from .listing import Listing
from .moves import Moves
from .seating import Seating


class Tables(Seating, Listing, Moves, Clocks):
    """The one table service (its state: ``TableParts``, base.py)."""
