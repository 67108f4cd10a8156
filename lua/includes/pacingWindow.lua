--[[
  Pacing: SMS parts per rolling 60 seconds for the phone as a whole, all SIMs together
  (Android's SmsUsageMonitor counts per app, not per SIM: past 30 parts a minute an unattended
  phone stops sending). Keys, under the phone's pacing prefix: <prefix>w, the window (sorted set:
  '<parts>:<message id>' scored by claim time), and <prefix>ws, the sum of its parts.
]]

local function partsOf(entries)
  local parts = 0
  for i = 1, #entries do parts = parts + tonumber(string.match(entries[i], '^(%d+):')) end
  return parts
end

-- The window as it stands at `now`. `retryAfter`: when its oldest claim leaves it (a minute from
-- now if nothing is in it yet). The parts of the last 60 seconds are read from the running sum
-- less what left the window, so a claim reads the entries that expired rather than the whole
-- window (thousands of entries on a phone whose pacing was raised); without the sum (a Redis that
-- lost it) the window is summed once.
local function openPacingWindow(prefix, now, pace)
  local key, sumKey = prefix .. 'w', prefix .. 'ws'
  local windowStart = now - 60000
  local used = tonumber(rcall('GET', sumKey) or '')
  local sumMissing = used == nil
  local expired = rcall('ZRANGEBYSCORE', key, '-inf', windowStart)
  if #expired > 0 then rcall('ZREMRANGEBYSCORE', key, '-inf', windowStart) end
  local oldest = rcall('ZRANGE', key, 0, 0, 'WITHSCORES')
  if #oldest == 0 then
    used = 0
  elseif used == nil then
    used = partsOf(rcall('ZRANGE', key, 0, -1))
  else
    used = used - partsOf(expired)
  end
  -- What this claim adds: parts, and the window's new entries (score, member, …).
  local added, entries = 0, {}
  local window = {retryAfter = 60000}
  if #oldest > 0 then window.retryAfter = math.max(1, tonumber(oldest[2]) + 60000 - now) end

  -- Whether `seg` more parts fit: a message longer than the whole pace still goes, alone, into an empty window.
  function window.fits(seg) return used + added + seg <= pace or (used + added == 0) end

  function window.full() return used + added >= pace end

  function window.add(seg, id)
    added = added + seg
    entries[#entries + 1] = now
    entries[#entries + 1] = seg .. ':' .. id
  end

  -- Writes what the claim added, and the sum whenever it changed or was lost.
  function window.save()
    if #entries > 0 then
      rcall('ZADD', key, unpack(entries))
      rcall('PEXPIRE', key, 120000)
    end
    if #entries > 0 or #expired > 0 or sumMissing then rcall('SET', sumKey, used + added, 'PX', 120000) end
  end

  return window
end
