--[[
  Hands queued messages to one phone: urgent messages first, from its own queue then the
  organization's; then its own queue (messages pinned to it), then the organization's. Honours the phone's state (revoked, outbound disabled, draining claim
  nothing) and its pacing: SMS parts per rolling 60 seconds for the phone as a whole, all SIMs
  together (Android's SmsUsageMonitor counts per app, not per SIM: past 30 parts a minute an
  unattended phone stops sending), and an optional daily cap per SIM.
  A claimed message leaves its queue for the claiming set (scored by claim time) and keeps its
  meta, until the caller confirms the claim in Postgres (lua/confirmClaims) or the recovery sweep
  puts it back. One call decides, so no message can be handed to two phones.

  KEYS[1] the device queue (sorted set)
  KEYS[2] the organization queue (sorted set)
  KEYS[3] the queue meta hash (message id -> dispatch JSON; `av`/`avu`: a device that may not
          take the message before that time in ms, the phone it was withdrawn from or failed on)
  KEYS[4] the device state hash (revoked, outbound, draining, pace, simCap, defaultSim, resting,
          coolUntil: ms until which a phone that hit Android's limit takes nothing)
  KEYS[5] the claiming set (sorted set: message id -> claim time ms)

  ARGV[1] device id
  ARGV[2] max jobs
  ARGV[3] now, milliseconds
  ARGV[4] pacing key prefix (…:pace:<deviceId>:), same hash tag: <prefix>w is the phone's
          window (sorted set: '<parts>:<message id>' scored by claim time), <prefix><sim>:d<day>
          each SIM's count of the day
  ARGV[5] UTC day yyyymmdd
  ARGV[6] urgent score: entries scored at or below it (high-priority messages, queued an hour
          ahead, and messages that waited longer than that) are taken from both queues first

  Returns {code, retryAfterMs, id1, meta1, sim1, id2, …} (sim: the message's SIM, else the
  device's default, else -1):
    1  claimed (possibly nothing); retryAfterMs is 0, or when the window's oldest parts leave
       it if pacing held messages back
    0  nothing claimed because pacing is spent, or the phone cools down after Android's limit;
       retryAfterMs says when the oldest parts leave, or when the cool-down ends
   -1  no device state in Redis: the caller loads it from Postgres and calls again
   -2  the device is revoked
   -3  the device takes no new messages (outbound disabled or draining)
   -4  the device rests: its battery is low and not charging, or it has no service
]]
local rcall = redis.call
local state = rcall('HMGET', KEYS[4], 'revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim', 'resting', 'coolUntil')
-- A hash holding only what a heartbeat wrote after Redis lost the rest counts as missing.
if not state[1] or not state[4] then return {-1, 0} end
if state[1] == '1' then return {-2, 0} end
if state[2] ~= '1' or state[3] == '1' then return {-3, 0} end
if state[7] == '1' then return {-4, 0} end

local max = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local coolUntil = tonumber(state[8]) or 0
if coolUntil > now then return {0, coolUntil - now} end
local pace = tonumber(state[4])
local simCap = tonumber(state[5]) or 0
local defaultSim = tonumber(state[6]) or -1
local windowKey = ARGV[4] .. 'w'
local windowStart = now - 60000

-- The parts the phone was handed in the last 60 seconds, all SIMs together.
rcall('ZREMRANGEBYSCORE', windowKey, '-inf', windowStart)
local inWindow = rcall('ZRANGE', windowKey, 0, -1, 'WITHSCORES')
local windowUsed = 0
for i = 1, #inWindow, 2 do
  windowUsed = windowUsed + tonumber(string.match(inWindow[i], '^(%d+):'))
end
-- When the oldest claim leaves the window (a minute from now if nothing is in it yet).
local retryAfter = 60000
if #inWindow > 0 then retryAfter = math.max(1, tonumber(inWindow[2]) + 60000 - now) end
local windowAdd = 0
local windowEntries = {}

local out = {1, 0}
local claimed = 0
local paced = false
-- Parts spent per SIM today in this call, on top of what the daily keys already hold.
local spent = {}

local function dayBudgetFor(sim)
  local simKey = tostring(sim)
  if spent[simKey] == nil then
    local usedToday = tonumber(rcall('GET', ARGV[4] .. simKey .. ':d' .. ARGV[5]) or '0')
    spent[simKey] = {day = usedToday, add = 0}
  end
  return spent[simKey]
end

-- Reads the meta of as many candidates as are still wanted with one HMGET, and moves the claimed
-- ones with one ZREM (with those whose meta is gone) and one ZADD: per message an HGET, a ZREM and a ZADD made a 50-job claim
-- 150 commands, each propagated to the AOF.
local function take(queue, upTo)
  local ids
  if upTo then
    ids = rcall('ZRANGEBYSCORE', queue, '-inf', upTo, 'LIMIT', 0, max * 4)
  else
    ids = rcall('ZRANGE', queue, 0, max * 4 - 1)
  end
  local pos = 1
  while claimed < max and pos <= #ids do
    local slice = {}
    for i = pos, math.min(#ids, pos + (max - claimed) - 1) do slice[#slice + 1] = ids[i] end
    pos = pos + #slice
    local raws = rcall('HMGET', KEYS[3], unpack(slice))
    local leaving, claiming = {}, {}
    for n, id in ipairs(slice) do
      local raw = raws[n]
      if not raw then
        leaving[#leaving + 1] = id
      else
        local meta = cjson.decode(raw)
        -- A message withdrawn from this phone (or failed on it) waits a while for another phone.
        local avoided = meta['av'] == ARGV[1] and (tonumber(meta['avu']) or 0) > now
        if tonumber(meta['exp']) > now and not avoided then
          local sim = meta['sim']
          if sim == nil or sim == cjson.null then sim = defaultSim end
          local b = dayBudgetFor(sim)
          local seg = tonumber(meta['seg'])
          -- A message longer than the whole pace still goes, alone, into an empty window.
          local withinWindow = windowUsed + windowAdd + seg <= pace or (windowUsed + windowAdd == 0)
          local withinDay = simCap <= 0 or b.day + b.add + seg <= simCap
          if withinWindow and withinDay then
            b.add = b.add + seg
            windowAdd = windowAdd + seg
            windowEntries[#windowEntries + 1] = now
            windowEntries[#windowEntries + 1] = seg .. ':' .. id
            leaving[#leaving + 1] = id
            claiming[#claiming + 1] = now
            claiming[#claiming + 1] = id
            claimed = claimed + 1
            out[#out + 1] = id
            out[#out + 1] = raw
            out[#out + 1] = sim
          else
            paced = true
          end
        end
      end
    end
    -- Messages whose meta is gone and messages claimed both leave the queue.
    if #leaving > 0 then rcall('ZREM', queue, unpack(leaving)) end
    if #claiming > 0 then rcall('ZADD', KEYS[5], unpack(claiming)) end
  end
end

take(KEYS[1], ARGV[6])
if claimed < max then take(KEYS[2], ARGV[6]) end
if claimed < max then take(KEYS[1]) end
if claimed < max then take(KEYS[2]) end

if #windowEntries > 0 then
  rcall('ZADD', windowKey, unpack(windowEntries))
  rcall('PEXPIRE', windowKey, 120000)
end
for simKey, b in pairs(spent) do
  if b.add > 0 then
    local dk = ARGV[4] .. simKey .. ':d' .. ARGV[5]
    rcall('INCRBY', dk, b.add)
    rcall('EXPIRE', dk, 172800)
  end
end

if claimed == 0 and paced then return {0, retryAfter} end
if paced then out[2] = retryAfter end
return out
