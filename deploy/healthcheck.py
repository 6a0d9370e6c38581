"""Container health probe: ``python deploy/healthcheck.py [PATH]`` exits 0 when
``GET http://127.0.0.1:$PORT<PATH>`` (default ``/healthz``) answers 200, 1 otherwise.

Standard library only, so the slim image needs no curl. The Dockerfile's HEALTHCHECK probes
``/healthz`` (the process is alive); compose probes ``/readyz`` (Redis answers: the replica can
serve tables) before the proxy sends it traffic.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def main(argv: list[str]) -> int:
    path = argv[0] if argv else "/healthz"
    url = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}{path}"
    try:
        with urllib.request.urlopen(url, timeout=3) as reply:
            return 0 if reply.status == 200 else 1
    except OSError as err:  # refused, timed out, or an HTTP error such as readyz's 503
        print(f"{url}: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
