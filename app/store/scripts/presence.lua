-- Refresh one process's members of the presence sets of a bucket's tables and read who is
-- present at each, in one call (app/store/presence.py): extend the members it holds sockets
-- for, drop the lapsed ones, keep each key alive. One call per bucket (its keys share one
-- slot), where a call per table made a busy process's beat a burst of hundreds of calls.
-- KEYS: the tables' presence zsets. ARGV: 1 now ms, 2 the members' expiry ms, 3 the keys'
-- TTL ms, then per key: how many members, the members.
local now, expiry, ttl = ARGV[1], ARGV[2], ARGV[3]
local at, present = 4, {}
for k, key in ipairs(KEYS) do
  local n = tonumber(ARGV[at])
  for i = at + 1, at + n do
    redis.call("ZADD", key, expiry, ARGV[i])
  end
  at = at + n + 1
  redis.call("ZREMRANGEBYSCORE", key, "-inf", now)
  redis.call("PEXPIRE", key, ttl)
  present[k] = redis.call("ZRANGEBYSCORE", key, now, "+inf")
end
return present
