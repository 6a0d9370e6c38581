-- Add this process to (or remove it from) the watchers sets of a bucket's tables, in one call
-- (app/store/tables.py ``watching``; the keys share one slot).
-- KEYS: the tables' watchers sets. ARGV: 1 SADD or SREM, 2 the process's origin.
for _, key in ipairs(KEYS) do
  redis.call(ARGV[1], key, ARGV[2])
end
return #KEYS
