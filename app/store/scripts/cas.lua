-- One table change, all or nothing (DESIGN.md "One move = one atomic compare-and-set").
-- Only keys with the table's hash tag {table_id}, so the script runs on a Redis Cluster: the
-- global indexes (clocks, tables:live) are written by the caller in the same pipeline
-- (app/store/tables.py explains why that is safe). tests/store/test_cluster.py checks it.
-- KEYS: 1 table hash, 2 event stream, 3 outbox stream, 4 action log, 5 command key (one per
--       player and command id: another player's move that reused an id is its own command)
-- ARGV: 1 table id, 2 expected version, 3 new doc, 4 has command ("1"/"0"), 5 events (JSON
--       array), 6 deadline ms ("" = none; kept as the hash's field "at"), 7 channel,
--       8 stream length, 9 command ttl s, 10 expire s ("" = none: the table closes),
--       11 n outbox, outbox..., n log, log..., log ttl s
-- Returns {"ok", v} | {"dup", first v, at} | {"stale", v, doc, at}; ``at`` is the table's own
-- current deadline ("" = none), so a caller that lost can repair the clock entry it wrote.
if ARGV[4] == "1" then
  local first = redis.call("GET", KEYS[5])
  if first then return {"dup", first, redis.call("HGET", KEYS[1], "at") or ""} end
end
local v = tonumber(redis.call("HGET", KEYS[1], "v") or "0")
if v ~= tonumber(ARGV[2]) then
  return {"stale", tostring(v), redis.call("HGET", KEYS[1], "doc") or "",
          redis.call("HGET", KEYS[1], "at") or ""}
end
local nv = v + 1
redis.call("HSET", KEYS[1], "v", nv, "doc", ARGV[3])
if ARGV[6] == "" then
  redis.call("HDEL", KEYS[1], "at")
else
  redis.call("HSET", KEYS[1], "at", ARGV[6])
end
if ARGV[4] == "1" then
  redis.call("SET", KEYS[5], nv, "EX", tonumber(ARGV[9]))
end
redis.call("XADD", KEYS[2], "MAXLEN", tonumber(ARGV[8]), nv .. "-0", "e", ARGV[5])
local i = 11
local n_out = tonumber(ARGV[i])
for j = 1, n_out do redis.call("XADD", KEYS[3], "*", "e", ARGV[i + j]) end
i = i + n_out + 1
local n_log = tonumber(ARGV[i])
for j = 1, n_log do redis.call("RPUSH", KEYS[4], ARGV[i + j]) end
if n_log > 0 then redis.call("EXPIRE", KEYS[4], tonumber(ARGV[i + n_log + 1])) end
if ARGV[10] ~= "" then
  redis.call("EXPIRE", KEYS[1], tonumber(ARGV[10]))
  redis.call("EXPIRE", KEYS[2], tonumber(ARGV[10]))
end
redis.call("PUBLISH", ARGV[7], '{"t":"' .. ARGV[1] .. '","v":' .. nv .. ',"e":' .. ARGV[5] .. '}')
return {"ok", tostring(nv)}
