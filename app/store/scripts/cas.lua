-- One table change, all or nothing (DESIGN.md "One move = one atomic compare-and-set").
-- KEYS: 1 table hash, 2 event stream, 3 outbox stream, 4 action log, 5 clocks zset,
--       6 command key, 7 live-tables zset
-- ARGV: 1 table id, 2 expected version, 3 new doc, 4 has command ("1"/"0"), 5 events (JSON
--       array), 6 deadline ms ("" = none), 7 channel, 8 stream length, 9 command ttl s,
--       10 live ("" keep, "-" remove, else score), 11 n outbox, outbox..., n log, log...,
--       log ttl s (the match record is built from the log when the match ends)
-- Returns {"ok", v} | {"dup", first v} | {"stale", v, doc}.
if ARGV[4] == "1" then
  local first = redis.call("GET", KEYS[6])
  if first then return {"dup", first} end
end
local v = tonumber(redis.call("HGET", KEYS[1], "v") or "0")
if v ~= tonumber(ARGV[2]) then
  return {"stale", tostring(v), redis.call("HGET", KEYS[1], "doc") or ""}
end
local nv = v + 1
redis.call("HSET", KEYS[1], "v", nv, "doc", ARGV[3])
if ARGV[4] == "1" then
  redis.call("SET", KEYS[6], nv, "EX", tonumber(ARGV[9]))
end
redis.call("XADD", KEYS[2], "MAXLEN", tonumber(ARGV[8]), nv .. "-0", "e", ARGV[5])
local i = 11
local n_out = tonumber(ARGV[i])
for j = 1, n_out do redis.call("XADD", KEYS[3], "*", "e", ARGV[i + j]) end
i = i + n_out + 1
local n_log = tonumber(ARGV[i])
for j = 1, n_log do redis.call("RPUSH", KEYS[4], ARGV[i + j]) end
if n_log > 0 then redis.call("EXPIRE", KEYS[4], tonumber(ARGV[i + n_log + 1])) end
if ARGV[6] == "" then
  redis.call("ZREM", KEYS[5], ARGV[1])
else
  redis.call("ZADD", KEYS[5], tonumber(ARGV[6]), ARGV[1])
end
if ARGV[10] == "-" then
  redis.call("ZREM", KEYS[7], ARGV[1])
elseif ARGV[10] ~= "" then
  redis.call("ZADD", KEYS[7], tonumber(ARGV[10]), ARGV[1])
end
redis.call("PUBLISH", ARGV[7], '{"t":"' .. ARGV[1] .. '","v":' .. nv .. ',"e":' .. ARGV[5] .. '}')
return {"ok", tostring(nv)}
