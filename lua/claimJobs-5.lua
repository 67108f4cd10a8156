--[[
  Hands queued messages to one phone: its own queue first (messages pinned to it), then the
  organization's queue. Honours the phone's state (revoked, outbound disabled, draining claim
  nothing) and its pacing: segments per minute per SIM, and an optional daily cap per SIM.
  A claimed message leaves its queue for the claiming set (scored by claim time) and keeps its
  meta, until the caller confirms the claim in Postgres (lua/confirmClaims) or the recovery sweep
  puts it back. One call decides, so no message can be handed to two phones.

  KEYS[1] the device queue (sorted set)
  KEYS[2] the organization queue (sorted set)
  KEYS[3] the queue meta hash (message id -> dispatch JSON)
  KEYS[4] the device state hash (revoked, outbound, draining, pace, simCap, defaultSim)
  KEYS[5] the claiming set (sorted set: message id -> claim time ms)

  ARGV[1] device id
  ARGV[2] max jobs
  ARGV[3] now, milliseconds
  ARGV[4] pacing key prefix (…:pace:<deviceId>:), same hash tag
  ARGV[5] UTC day yyyymmdd

  Returns {code, retryAfterMs, id1, meta1, sim1, id2, …} (sim: the message's SIM, else the
  device's default, else -1):
    1  claimed (possibly nothing); retryAfterMs is 0, or when the minute rolls over if pacing
       held messages back
    0  nothing claimed because pacing is spent; retryAfterMs says when the minute rolls over
   -1  no device state in Redis: the caller loads it from Postgres and calls again
   -2  the device is revoked
   -3  the device takes no new messages (outbound disabled or draining)
]]
local rcall = redis.call
local state = rcall('HMGET', KEYS[4], 'revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim')
if not state[1] then return {-1, 0} end
if state[1] == '1' then return {-2, 0} end
if state[2] ~= '1' or state[3] == '1' then return {-3, 0} end

local max = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local pace = tonumber(state[4])
local simCap = tonumber(state[5]) or 0
local defaultSim = tonumber(state[6]) or -1
local minute = math.floor(now / 60000)
local retryAfter = 60000 - (now % 60000)

local out = {1, 0}
local claimed = 0
local paced = false
-- Segments spent per SIM in this call, on top of what the pacing keys already hold.
local spent = {}

local function budgetFor(sim)
  local simKey = tostring(sim)
  if spent[simKey] == nil then
    local used = tonumber(rcall('GET', ARGV[4] .. simKey .. ':m' .. minute) or '0')
    local usedToday = tonumber(rcall('GET', ARGV[4] .. simKey .. ':d' .. ARGV[5]) or '0')
    spent[simKey] = {minute = used, day = usedToday, add = 0}
  end
  return spent[simKey]
end

-- Reads the meta of as many candidates as are still wanted with one HMGET, and moves the claimed
-- ones with one ZREM (with those whose meta is gone) and one ZADD: per message an HGET, a ZREM and a ZADD made a 50-job claim
-- 150 commands, each propagated to the AOF.
local function take(queue)
  local ids = rcall('ZRANGE', queue, 0, max * 4 - 1)
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
        if tonumber(meta['exp']) > now then
          local sim = meta['sim']
          if sim == nil or sim == cjson.null then sim = defaultSim end
          local b = budgetFor(sim)
          local seg = tonumber(meta['seg'])
          local withinMinute = b.minute + b.add + seg <= pace or (b.minute + b.add == 0)
          local withinDay = simCap <= 0 or b.day + b.add + seg <= simCap
          if withinMinute and withinDay then
            b.add = b.add + seg
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

take(KEYS[1])
if claimed < max then take(KEYS[2]) end

for simKey, b in pairs(spent) do
  if b.add > 0 then
    local mk = ARGV[4] .. simKey .. ':m' .. minute
    rcall('INCRBY', mk, b.add)
    rcall('PEXPIRE', mk, 120000)
    local dk = ARGV[4] .. simKey .. ':d' .. ARGV[5]
    rcall('INCRBY', dk, b.add)
    rcall('EXPIRE', dk, 172800)
  end
end

if claimed == 0 and paced then return {0, retryAfter} end
if paced then out[2] = retryAfter end
return out
