-- Delete a drained outbox stream whose table is closed or gone, and unlist the table
-- (app/store/outbox.py ``_drop_closed``): one atomic step, so an entry added meanwhile is never
-- lost, and no WATCH (redis-py's cluster client runs each command under WATCH in a thread of
-- its own, blocking the event loop). All keys share the table's bucket tag (one Cluster slot).
-- KEYS: 1 the stream, 2 the table's hash, 3 the bucket's set of listed tables
-- ARGV: 1 the table id
-- Returns 1 when the stream was dropped, else 0.
if redis.call("XLEN", KEYS[1]) > 0 then
  return 0
end
local doc = redis.call("HGET", KEYS[2], "doc")
if doc then
  local ok, decoded = pcall(cjson.decode, doc)
  if not ok or decoded["status"] ~= "closed" then  -- an unreadable document is kept, as an open one
    return 0
  end
end
redis.call("DEL", KEYS[1])
redis.call("SREM", KEYS[3], ARGV[1])
return 1
