#!/usr/bin/env bash
# One Redis node's moves per second at saturation: redis-benchmark runs bench/cas_shape.lua
# (the writes of one accepted move, app/store/scripts/cas.lua) by EVALSHA against a private
# redis-server on a spare port, with one subscriber on the table channels as an app process
# would be, a 2.3 KB document (docs/operations/monitoring.md) and a 150-byte event list, over 1,000
# tables. Then the same for plain GET (the move path's other round trip is a pipelined read).
# Printed: requests/s and latency (redis-benchmark --csv), and Redis's own CPU time per call
# (INFO cpu before and after, over the requests), which on a shared machine is the steadier
# figure: a node's moves/s at saturation is about 1e6 / that (one core, one thread).
#   bench/redis_node.sh [REQUESTS=200000] [CLIENTS=50]
set -euo pipefail
n=${1:-200000}; c=${2:-50}
dir=$(mktemp -d); port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" --daemonize no >/dev/null &
server=$!
trap 'kill $sub $server 2>/dev/null; rm -rf "$dir"' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
redis-cli -p "$port" psubscribe 'ch:*' >/dev/null &
sub=$!
sha=$(redis-cli -p "$port" script load "$(cat "$(dirname "$0")/cas_shape.lua")")
doc=$(python3 -c 'print("d" * 2300)'); events=$(python3 -c 'print("[" + ",".join(["{\"type\":\"played\",\"seat\":1,\"tile\":[3,5],\"end\":\"left\"}"] * 3) + "]")')
cpu() { redis-cli -p "$port" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/ {t += $2} END {print t}'; }
cpu0=$(cpu)
echo "cas-shaped EVALSHA ($n requests, $c clients; csv: rps, latency avg min p50 p95 p99 max ms):"
redis-benchmark -p "$port" -n "$n" -c "$c" -r 1000 --csv \
  EVALSHA "$sha" 4 "t:{__rand_int__}" "t:{__rand_int__}:events" "t:{__rand_int__}:log:1" \
  "t:{__rand_int__}:cmd:__rand_int__" "$doc" "$events" "ch:__rand_int__" | tail -1 | cut -c1-12,2400- | sed 's/^/  /' 
cpu1=$(cpu)
# CPU time is what the shared machine disturbs least (requests/s depend on who else runs)
echo "  redis CPU per call: $(python3 -c "print(round(($cpu1 - $cpu0) / $n * 1e6, 1))") us; \
$(redis-cli -p "$port" info commandstats | tr -d '\r' | grep '^cmdstat_evalsha' | grep -o 'usec_per_call=[0-9.]*') (inside the script)"
echo "used_memory after: $(redis-cli -p "$port" info memory | grep '^used_memory_human' | tr -d '\r')"
echo "GET ($n requests, $c clients):"
redis-benchmark -p "$port" -n "$n" -c "$c" -r 1000 --csv -t get | tail -1 | sed 's/^/  /' 
