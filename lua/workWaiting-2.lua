--[[
  Whether any work waits for each of some phones of one organization: the question the claim
  script answers first (lua/claimJobs-7.lua, step 0), asked for a batch of phones at once. A fleet
  reconnecting opens thousands of sockets in a few seconds, each of which would otherwise make a
  claim call that finds nothing.

  KEYS[1] the organization queue (sorted set)
  KEYS[2] the device queue prefix (…:q:dev:): <prefix><deviceId> is a phone's own queue. Both
          hold the organization's hash tag, so the call goes to the slot of every key it touches.

  ARGV    device ids

  Returns, per phone in order, 1 when its queue or the organization's holds an entry, else 0.
]]
local rcall = redis.call
local waiting = {}
local orgHasWork = rcall('ZCARD', KEYS[1]) > 0
for i = 1, #ARGV do
  if orgHasWork or rcall('ZCARD', KEYS[2] .. ARGV[i]) > 0 then
    waiting[i] = 1
  else
    waiting[i] = 0
  end
end
return waiting
