-- Refresh one process's members of a table's presence set and read who is present, in one
-- call (app/store/presence.py): extend the members it holds sockets for, drop the lapsed ones,
-- keep the key alive. One call per table on the table's node (its lane), where a pipeline of
-- four commands per table cost a beat of a busy process tens of milliseconds of event loop.
-- KEYS: 1 presence zset. ARGV: 1 now ms, 2 the members' expiry ms, 3 the key's TTL ms,
-- 4.. this process's members.
local key, now = KEYS[1], ARGV[1]
for i = 4, #ARGV do
  redis.call("ZADD", key, ARGV[2], ARGV[i])
end
redis.call("ZREMRANGEBYSCORE", key, "-inf", now)
redis.call("PEXPIRE", key, ARGV[3])
return redis.call("ZRANGEBYSCORE", key, now, "+inf")
