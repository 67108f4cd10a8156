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
]]
local rcall = redis.call
local queue = KEYS[1]
if ARGV[1] == '1' then queue = KEYS[2] end

local added = 0
for i = 2, #ARGV, 3 do
  local id = ARGV[i]
  if rcall('HSETNX', KEYS[3], id, ARGV[i + 2]) == 1 then
    rcall('ZADD', queue, ARGV[i + 1], id)
    added = added + 1
  end
end
return added
