-- Settle written outbox entries of one table's stream (app/store/outbox.py ``_ack``): acknowledge
-- and delete them, and keep the bucket's counters in step in the same atomic step (the backlog
-- that scripts/cas.lua adds to, and the time of the stream's oldest entry still waiting), so
-- the metrics read per bucket what would otherwise be read per stream. All keys share the
-- table's bucket tag (one Cluster slot).
-- KEYS: 1 the stream, 2 the bucket's outbox backlog, 3 its oldest entries (zset: table -> ms)
-- ARGV: 1 the consumer group, 2 the table id, 3... the entry ids
redis.call("XACK", KEYS[1], ARGV[1], unpack(ARGV, 3))
local gone = redis.call("XDEL", KEYS[1], unpack(ARGV, 3))
if gone > 0 and redis.call("DECRBY", KEYS[2], gone) < 0 then
  redis.call("SET", KEYS[2], 0)  -- entries added by hand, not by a script: never below zero
end
local first = redis.call("XRANGE", KEYS[1], "-", "+", "COUNT", 1)
if #first == 0 then
  redis.call("ZREM", KEYS[3], ARGV[2])
else
  redis.call("ZADD", KEYS[3], tonumber(string.match(first[1][1], "^%d+")), ARGV[2])
end
return gone
