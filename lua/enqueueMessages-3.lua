--[[
  Puts accepted messages on a dispatch queue: the phone's own queue when the send named a
  device, else the organization's queue. The message's dispatch details go in the queue's meta
  hash so a claim needs no Postgres read. Re-running it for the same messages changes nothing
  (the reconciler and the rebuild after a Redis flush rely on that).

  KEYS[1] the organization queue (sorted set: message id, score = enqueue order)
  KEYS[2] the device queue when pinned (sorted set), else a placeholder of the same organization
  KEYS[3] the queue meta hash (message id -> JSON dispatch details)

  ARGV[1] 1 when pinned to the device of KEYS[2], else 0
  ARGV[2..] triples: message id, score, dispatch JSON

  Returns the number of messages newly queued.

  One HMGET, one HSET and one ZADD per chunk, not an HSETNX and a ZADD per message: a 500-recipient
  send was a thousand commands, each dispatched, propagated and appended to the AOF on its own.
]]
local rcall = redis.call
local queue = KEYS[1]
if ARGV[1] == '1' then queue = KEYS[2] end

-- Lua's unpack is bounded by its stack: commands get at most CHUNK messages each.
local CHUNK = 1000
local added = 0
local seen = {}
local first = 2
while first <= #ARGV do
  local last = math.min(#ARGV, first + 3 * CHUNK - 1)
  local ids = {}
  for i = first, last, 3 do ids[#ids + 1] = ARGV[i] end
  local stored = rcall('HMGET', KEYS[3], unpack(ids))
  local fields, members = {}, {}
  for n = 1, #ids do
    local id = ids[n]
    if not stored[n] and not seen[id] then
      seen[id] = true
      local i = first + 3 * (n - 1)
      fields[#fields + 1] = id
      fields[#fields + 1] = ARGV[i + 2]
      members[#members + 1] = ARGV[i + 1]
      members[#members + 1] = id
    end
  end
  if #fields > 0 then
    rcall('HSET', KEYS[3], unpack(fields))
    rcall('ZADD', queue, unpack(members))
    added = added + #members / 2
  end
  first = last + 1
end
return added
