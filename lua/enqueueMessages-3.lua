--[[
  Puts accepted messages on a dispatch queue: the phone's own queue when the send named a
  device, else the organization's queue. The message's dispatch details go in the queue's meta
  hash so a claim needs no Postgres read. Re-running it for the same messages changes nothing
  (the reconciler and the rebuild after a Redis flush rely on that).

  KEYS[1] the organization queue (sorted set: message id, score = enqueue order)
  KEYS[2] the device queue when pinned (sorted set), else a placeholder of the same organization
  KEYS[3] the queue meta hash (message id -> JSON dispatch details)

  ARGV[1] 1 when pinned to the device of KEYS[2], else 0
  ARGV[2] the message ids, one per line
  ARGV[3] their scores, one per line, in the same order
  ARGV[4] their dispatch JSON, one per line (JSON text holds no raw line break)

  Returns the number of messages newly queued.

  One HMGET, one HSET and one ZADD per chunk, not an HSETNX and a ZADD per message: a 500-recipient
  send was a thousand commands, each dispatched, propagated and appended to the AOF on its own.
  The messages come as three arguments rather than three each: the API encoded the 1,501
  arguments of a 500-recipient send in 314-336 µs of its CPU, the three in 167-170 µs, and the
  call took less time as a whole (536-558 against 336-338 µs; bench/README.md).
]]
local rcall = redis.call
local queue = KEYS[1]
if ARGV[1] == '1' then queue = KEYS[2] end

local function lines(text)
  local out, pos = {}, 1
  while true do
    local nl = string.find(text, '\n', pos, true)
    if not nl then
      out[#out + 1] = string.sub(text, pos)
      return out
    end
    out[#out + 1] = string.sub(text, pos, nl - 1)
    pos = nl + 1
  end
end
local allIds, scores, metas = lines(ARGV[2]), lines(ARGV[3]), lines(ARGV[4])

-- Lua's unpack is bounded by its stack: commands get at most CHUNK messages each.
local CHUNK = 1000
local added = 0
local seen = {}
local first = 1
while first <= #allIds do
  local last = math.min(#allIds, first + CHUNK - 1)
  local ids = {}
  for i = first, last do ids[#ids + 1] = allIds[i] end
  local stored = rcall('HMGET', KEYS[3], unpack(ids))
  local fields, members = {}, {}
  for n = 1, #ids do
    local id = ids[n]
    if not stored[n] and not seen[id] then
      seen[id] = true
      local i = first + n - 1
      fields[#fields + 1] = id
      fields[#fields + 1] = metas[i]
      members[#members + 1] = scores[i]
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
