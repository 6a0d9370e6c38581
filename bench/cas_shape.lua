-- The writes of app/store/scripts/cas.lua for one accepted move, without its version check (so
-- redis-benchmark can repeat it on the same keys): the document and version, the command id
-- with its TTL, one event-stream entry (capped), one action-log entry, and the publish. For
-- bench/redis_node.sh: what one Redis node does per move, at saturation.
-- KEYS: table hash, event stream, action log, command key; ARGV: doc, events, channel
local nv = redis.call("HINCRBY", KEYS[1], "v", 1)
redis.call("HSET", KEYS[1], "doc", ARGV[1], "at", "1700000000000")
redis.call("SET", KEYS[4], nv, "EX", 600)
redis.call("XADD", KEYS[2], "MAXLEN", 500, "*", "e", ARGV[2])
redis.call("RPUSH", KEYS[3], ARGV[2])
redis.call("EXPIRE", KEYS[3], 604800)
redis.call("PUBLISH", ARGV[3], '{"t":"x","v":' .. nv .. ',"e":' .. ARGV[2] .. '}')
return nv
