"""Benchmarks (bench/README.md). The tools are scripts (``python bench/load.py``); the modules
they share are named for what they do:

- ``services``: the Redis, database and server processes a run starts or targets;
- ``rest``: the REST calls that register and seat the players;
- ``usage``: CPU and memory of each process and of the machine;
- ``redis_counts``: commands and round trips per action, the outbox backlog;
- ``percentiles``: nearest-rank latency percentiles;
- ``cli``: the shared arguments and the entry point that prints a report.
"""
