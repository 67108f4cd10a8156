--[[
  Decides whether a sign-in attempt may go on, and counts a failed one.

  Failures are counted per client address and per email in fixed windows. An attempt is refused
  while either counter is at its limit, whatever the password: a guesser learns nothing more.

  KEYS[1] failures of the client address in the current window
  KEYS[2] failures of the email in the current window

  ARGV[1] window length, milliseconds
  ARGV[2] failures allowed per address in a window
  ARGV[3] failures allowed per email in a window
  ARGV[4] 1: count a failure now; 0: only ask

  Returns {code, waitMs}:
    1  allowed (counted when ARGV[4] is 1); waitMs is 0
    0  refused, nothing counted; waitMs is the time until the window of the counter at its limit
       ends
]]
local window = tonumber(ARGV[1])
local byAddress = tonumber(redis.call('GET', KEYS[1]) or '0')
local byEmail = tonumber(redis.call('GET', KEYS[2]) or '0')

local function waitOf(key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then return window end
  return ttl
end

if byAddress >= tonumber(ARGV[2]) then return {0, waitOf(KEYS[1])} end
if byEmail >= tonumber(ARGV[3]) then return {0, waitOf(KEYS[2])} end

if ARGV[4] == '1' then
  for _, key in ipairs(KEYS) do
    if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, window) end
  end
end
return {1, 0}
