--[[
  Gives back a reservation of lua/reservePasswordAttempt-3.lua: the password was right, so the
  attempt is not a failure. A counter whose window ended meanwhile is left gone, never made
  negative.

  KEYS[1..3] the same three counters the reservation raised

  Returns the number of counters lowered.
]]
local lowered = 0
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
    lowered = lowered + 1
  end
end
return lowered
