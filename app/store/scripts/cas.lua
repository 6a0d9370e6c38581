-- One table change, all or nothing (docs/design.md "The write path"),
-- indexes included. Every key has the table's bucket tag {bNN} (app/store/keys.py), so the
-- script runs in one Redis Cluster slot. tests/store/test_cluster.py checks it.
-- KEYS: 1 table hash, 2 event stream, 3 outbox stream, 4 action log, 5 command key (one per
--       player and command id: another player's move that reused an id is its own command),
--       6 the bucket's clocks zset, 7 its live zset, 8 its outboxes set, 9 the table's channel,
--       10 the processes watching the table (a set of origins, app/store/hub.py), 11 the
--       bucket's outbox backlog (an integer), 12 its oldest outbox entries (a zset: table id ->
--       ms), then the lobby facets the table leaves (n unlist), then those it joins (n list)
-- ARGV: 1 table id, 2 expected version, 3 new doc, 4 has command ("1"/"0"), 5 events (JSON
--       array), 6 deadline ms ("" = none; kept as the hash's field "at"), 7 sharded pub/sub
--       ("1": SPUBLISH), 8 stream length, 9 command ttl s, 10 expire s ("" = none: the table
--       closes), 11 registry ("+<created ms>": a new table, "-": it closed, "": unchanged),
--       12 n unlist, 13 n list, 14 the listed facets' scores (space-separated, in their
--       order), 15 the chips on the table's seats ("" = not said: the field is dropped and
--       the audit reads the document instead), 16 n outbox, outbox..., n log, log..., log ttl,
--       the writing process's origin
--       (that process fans out from this reply: the change is published only when another
--       process watches the table, and names its writer)
-- Returns {"ok", v} | {"dup", first v} | {"stale", v, doc}.
if ARGV[4] == "1" then
  local first = redis.call("GET", KEYS[5])
  if first then  -- remembered afresh: a write, so a WAIT after it covers the first one too
    redis.call("EXPIRE", KEYS[5], tonumber(ARGV[9]))
    return {"dup", first}
  end
end
local v = tonumber(redis.call("HGET", KEYS[1], "v") or "0")
if v ~= tonumber(ARGV[2]) then
  return {"stale", tostring(v), redis.call("HGET", KEYS[1], "doc") or ""}
end
local tid = ARGV[1]
local nv = v + 1
if ARGV[15] == "" then
  redis.call("HSET", KEYS[1], "v", nv, "doc", ARGV[3])
  redis.call("HDEL", KEYS[1], "chips")
else
  redis.call("HSET", KEYS[1], "v", nv, "doc", ARGV[3], "chips", ARGV[15])
end
if ARGV[6] == "" then
  redis.call("HDEL", KEYS[1], "at")
  redis.call("ZREM", KEYS[6], tid)
else
  redis.call("HSET", KEYS[1], "at", ARGV[6])
  redis.call("ZADD", KEYS[6], tonumber(ARGV[6]), tid)
end
if ARGV[11] == "-" then
  redis.call("ZREM", KEYS[7], tid)
elseif ARGV[11] ~= "" then
  redis.call("ZADD", KEYS[7], tonumber(string.sub(ARGV[11], 2)), tid)
  redis.call("SADD", KEYS[8], tid)
end
local n_unlist, n_list = tonumber(ARGV[12]), tonumber(ARGV[13])
for j = 1, n_unlist do redis.call("ZREM", KEYS[12 + j], tid) end
local scores = {}
for s in string.gmatch(ARGV[14], "%S+") do scores[#scores + 1] = tonumber(s) end
for j = 1, n_list do redis.call("ZADD", KEYS[12 + n_unlist + j], scores[j], tid) end
if ARGV[4] == "1" then
  redis.call("SET", KEYS[5], nv, "EX", tonumber(ARGV[9]))
end
redis.call("XADD", KEYS[2], "MAXLEN", tonumber(ARGV[8]), nv .. "-0", "e", ARGV[5])
local i = 16
local n_out = tonumber(ARGV[i])
if n_out > 0 then  -- counted as they are added: the metrics read no stream (scripts/ack.lua)
  local first = redis.call("XADD", KEYS[3], "*", "e", ARGV[i + 1])
  for j = 2, n_out do redis.call("XADD", KEYS[3], "*", "e", ARGV[i + j]) end
  redis.call("INCRBY", KEYS[11], n_out)
  redis.call("ZADD", KEYS[12], "NX", tonumber(string.match(first, "^%d+")), tid)
end
i = i + n_out + 1
local n_log = tonumber(ARGV[i])
for j = 1, n_log do redis.call("RPUSH", KEYS[4], ARGV[i + j]) end
if n_log > 0 then redis.call("EXPIRE", KEYS[4], tonumber(ARGV[i + n_log + 1])) end
if ARGV[10] ~= "" then
  redis.call("EXPIRE", KEYS[1], tonumber(ARGV[10]))
  redis.call("EXPIRE", KEYS[2], tonumber(ARGV[10]))
  redis.call("EXPIRE", KEYS[10], tonumber(ARGV[10]))
end
local origin = ARGV[i + n_log + 2]
local watchers = redis.call("SCARD", KEYS[10])
if watchers > 1 or (watchers == 1 and redis.call("SISMEMBER", KEYS[10], origin) == 0) then
  local message = '{"t":"' .. tid .. '","v":' .. nv .. ',"o":"' .. origin .. '","e":' .. ARGV[5] .. '}'
  redis.call(ARGV[7] == "1" and "SPUBLISH" or "PUBLISH", KEYS[9], message)
end
return {"ok", tostring(nv)}
