--[[
  Send windows (quiet hours): the times both the organization's windows and the phone's are
  open, worked out in TypeScript (time zones; src/send-windows encodeOpenTimes) and kept in the
  phone's state as `open`: '' when no windows apply, else `<from>-<horizon>|<start>-<end>,…`,
  the open times in ms between from and the horizon.
]]

-- 0 while the windows are open (or none apply); else when they open next, the horizon if not
-- before it; nil when the open times do not cover now (the state must be worked out anew).
local function windowsClosedUntil(open, now)
  if open == '' then return 0 end
  local from, horizon, times = string.match(open, '^(%d+)-(%d+)|(.*)$')
  horizon = tonumber(horizon)
  if now < tonumber(from) or horizon <= now then return nil end
  local closedUntil = horizon
  for s, e in string.gmatch(times, '(%d+)-(%d+)') do
    s, e = tonumber(s), tonumber(e)
    if s <= now and now < e then return 0 end
    if s > now and s < closedUntil then closedUntil = s end
  end
  return closedUntil
end
