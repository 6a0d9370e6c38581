-- Claim a due turn deadline (RULES.md O-3) for one process: if the table's deadline is still
-- due, push it a lease into the future and answer 1, so every other sweeper skips it. The
-- claimant then applies the timeout through the version-checked compare-and-set; if it dies,
-- the lease runs out and another process claims the deadline again.
-- KEYS: 1 clocks zset. ARGV: 1 table id, 2 now ms, 3 lease ms.
local due = redis.call("ZSCORE", KEYS[1], ARGV[1])
if not due or tonumber(due) > tonumber(ARGV[2]) then return 0 end
redis.call("ZADD", KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return 1
