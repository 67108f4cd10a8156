--[[
  Ends the claim of messages whose fate Postgres has decided (claimed by this phone, or
  cancelled/expired meanwhile): they leave the claiming set and their meta is dropped.

  KEYS[1] the claiming set
  KEYS[2] the queue meta hash

  ARGV    message ids

  Returns the number of ids removed from the claiming set.
]]
local removed = 0
for i = 1, #ARGV do
  removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
end
return removed
