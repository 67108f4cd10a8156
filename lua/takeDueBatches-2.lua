--[[
  Hands the scheduled batches that are due to one mover, so that two movers never take the same
  batch: each is moved from the due set to the moving set under a lease. A batch whose lease ran
  out (its mover died before finishing) is handed out again first, flagged, so that its mover
  also dispatches what the dead one had already queued in Postgres.

  KEYS[1] the due set (member batch id, score sendAt ms)
  KEYS[2] the moving set (member `<batchId>:<sendAt ms>`, score lease end ms)

  ARGV[1] now (ms)
  ARGV[2] the most batches to hand out
  ARGV[3] the lease end of what is handed out (ms)

  Returns a flat array of pairs: `<batchId>:<sendAt ms>`, then 1 when its lease had run out, else 0.
]]
local rcall = redis.call
local now, max, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local out = {}

local stale = rcall('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, max)
for i = 1, #stale do
  rcall('ZADD', KEYS[2], lease, stale[i])
  out[#out + 1] = stale[i]
  out[#out + 1] = 1
end

local room = max - #stale
if room > 0 then
  local due = rcall('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, room)
  for i = 1, #due, 2 do
    -- An integral score reads back as its digits ("1767225600000"): the sendAt in ms.
    local member = due[i] .. ':' .. due[i + 1]
    rcall('ZREM', KEYS[1], due[i])
    rcall('ZADD', KEYS[2], lease, member)
    out[#out + 1] = member
    out[#out + 1] = 0
  end
end
return out
