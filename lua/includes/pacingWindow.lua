--[[
  Pacing: SMS parts per rolling 60 seconds for the phone as a whole, all SIMs together
  (Android's SmsUsageMonitor counts per app, not per SIM: past 30 parts a minute an unattended
  phone stops sending). Keys, under the phone's pacing prefix: <prefix>w, the window (sorted set:
  one member per claim, '<parts>:<claim time>:<first message id>' scored by claim time), and
  <prefix>ws, the sum of its parts. One member per claim rather than per message: a phone whose
  pace is raised far (a fleet of test phones) holds thousands of entries, and each claim added,
  expired and parsed one per message (26-28 of ~270 us a claim of 10: bench/README.md, "The
  claim script alone").
]]

local function partsOf(entries)
  local parts = 0
  for i = 1, #entries do parts = parts + tonumber(string.match(entries[i], '^(%d+):')) end
  return parts
end

-- The window as it stands at `now`: `used`, the parts of the last 60 seconds, read from the
-- running sum less what left the window, so a claim reads the entries that expired rather than
-- the whole window (thousands of entries on a phone whose pacing was raised; without the sum, a
-- Redis that lost it, the window is summed once); `retryAfter`, when its oldest claim leaves it (a
-- minute from now if nothing is in it yet). What the claim adds goes to `added`, under `firstId`.
local function openPacingWindow(prefix, now, nowText, pace)
  local w = {
    key = prefix .. 'w', sumKey = prefix .. 'ws', pace = pace, now = now, nowText = nowText,
    used = 0, expired = 0, sumMissing = false, retryAfter = 60000,
    -- What this claim adds: parts, and the id of its first message (its member's name).
    added = 0, firstId = nil,
  }
  local windowStart = now - 60000
  local used = tonumber(rcall('GET', w.sumKey) or '')
  w.sumMissing = used == nil
  local expired = rcall('ZRANGEBYSCORE', w.key, '-inf', windowStart)
  if #expired > 0 then rcall('ZREMRANGEBYSCORE', w.key, '-inf', windowStart) end
  local oldest = rcall('ZRANGE', w.key, 0, 0, 'WITHSCORES')
  if #oldest == 0 then
    used = 0
  elseif used == nil then
    used = partsOf(rcall('ZRANGE', w.key, 0, -1))
  else
    used = used - partsOf(expired)
  end
  w.used = used
  w.expired = #expired
  if #oldest > 0 then w.retryAfter = math.max(1, tonumber(oldest[2]) + 60000 - now) end
  return w
end

-- Whether `seg` more parts fit: a message longer than the whole pace still goes, alone, into an empty window.
local function windowFits(w, seg)
  local inWindow = w.used + w.added
  return inWindow + seg <= w.pace or inWindow == 0
end

local function windowFull(w) return w.used + w.added >= w.pace end

local function windowAdd(w, seg, id)
  w.added = w.added + seg
  if not w.firstId then w.firstId = id end
end

-- Writes what the claim added, and the sum whenever it changed or was lost. The claim time in
-- the member keeps two claims apart whose first message is the same (put back, claimed again).
local function savePacingWindow(w)
  if w.added > 0 then
    rcall('ZADD', w.key, w.nowText, w.added .. ':' .. w.nowText .. ':' .. w.firstId)
    rcall('PEXPIRE', w.key, 120000)
  end
  if w.added > 0 or w.expired > 0 or w.sumMissing then rcall('SET', w.sumKey, w.used + w.added, 'PX', 120000) end
end
