"""One command line: ``python -m app serve | outbox | migrate | simulate | replay``.

Each command lives in its own module with a ``main(argv)`` that parses its own arguments;
this file only dispatches, so adding a command touches nothing else.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "serve": ("app.serve", "run the server (embedded SQLite + Redis unless configured)"),
    "outbox": ("app.outbox_worker", "write the outbox to the database (a worker apart from serve)"),
    "migrate": ("app.db.migrate", "apply the database migrations"),
    "simulate": ("app.simulate", "let bots play many matches and print statistics"),
    "replay": ("app.services.replay", "re-run a stored match and check its result"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m app {" + ",".join(COMMANDS) + "} [options]\n")
        for name, (_, help_text) in COMMANDS.items():
            print(f"  {name:<9} {help_text}")
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    return module.main(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
