-- The chips on the seats of one bucket's live tables, for the money audit
-- (app/store/tables.py ``chips_at_tables``): the sum of their hashes' ``chips`` fields (written
-- with the document by scripts/cas.lua), and the ids of live tables whose hash has a document
-- but no such field (written before the field was), whose documents the caller reads. No
-- document is read or parsed here. The tables' hashes share the bucket's tag (one Cluster
-- slot) with the registry, the one key named.
-- KEYS: 1 the bucket's live registry. ARGV: 1 the prefix of the bucket's table keys.
local sum, unsaid = 0, {}
for _, tid in ipairs(redis.call("ZRANGE", KEYS[1], 0, -1)) do
  local row = redis.call("HMGET", ARGV[1] .. tid, "v", "chips")
  if row[1] then
    if row[2] then sum = sum + tonumber(row[2]) else unsaid[#unsaid + 1] = tid end
  end
end
return {tostring(sum), unsaid}
