--[[
  Hands queued messages to one phone: urgent messages first, from its own queue then the
  organization's; then its own queue (messages pinned to it), then the organization's. Honours the phone's state (revoked, outbound disabled, draining claim
  nothing) and its pacing: SMS parts per rolling 60 seconds for the phone as a whole, all SIMs
  together (Android's SmsUsageMonitor counts per app, not per SIM: past 30 parts a minute an
  unattended phone stops sending), and an optional daily cap per SIM.
  A claimed message leaves its queue for the claiming set (scored by claim time) and keeps its
  meta, until the caller confirms the claim in Postgres (lua/confirmClaims) or the recovery sweep
  puts it back. One call decides, so no message can be handed to two phones.

  Which SIM: the one the send named (sim_requested); else a SIM of this phone on the recipient's
  network (sim_on_net: the organization's prefix table says which network a number is on, each
  SIM's network comes from its heartbeat's carrierName); else the phone's default SIM
  (sim_default, or on_net_sim_capped when its SIM on that network spent its day). A message of
  the organization's queue whose network this phone has no usable SIM on waits up to ARGV[7] ms
  after it was queued (its score) while another sending phone has a SIM on that network, so that
  phone sends it on-net; past that wait any phone takes it (off_net_after_wait).

  Send windows (quiet hours): outside the times both the organization's windows and the phone's
  are open (`open` in its state, worked out in TypeScript: time zones), only messages whose
  dispatch JSON says they ignore the windows (`iw`) are taken; the rest stay queued, in order.
  Those are queued a long way ahead (entries.ts), so they are found below ARGV[8] whatever waits.

  KEYS[1] the device queue (sorted set)
  KEYS[2] the organization queue (sorted set)
  KEYS[3] the queue meta hash (message id -> dispatch JSON; `av`/`avu`: a device that may not
          take the message before that time in ms, the phone it was withdrawn from or failed on)
  KEYS[4] the device state hash (revoked, outbound, draining, pace, simCap, defaultSim, resting,
          coolUntil: ms until which a phone that hit Android's limit takes nothing; nets: its
          SIMs on a known network, `sim=carrier,…`, the default first; prefixes: the
          organization's table, `+26132=orange,…`; open: '' when no windows apply, else
          `<from>-<horizon>|<start>-<end>,…`, the open times in ms between from and the horizon)
  KEYS[5] the claiming set (sorted set: message id -> claim time ms)
  KEYS[6] the organization's sending phones by network (sorted set, score 0: `<carrier>|<deviceId>`)

  ARGV[1] device id
  ARGV[2] max jobs
  ARGV[3] now, milliseconds
  ARGV[4] pacing key prefix (…:pace:<deviceId>:), same hash tag: <prefix>w is the phone's
          window (sorted set: '<parts>:<message id>' scored by claim time), <prefix>ws the sum of
          its parts, <prefix><sim>:d<day> each SIM's count of the day
  ARGV[5] UTC day yyyymmdd
  ARGV[6] urgent score: entries scored at or below it (high-priority messages, queued an hour
          ahead, and messages that waited longer than that) are taken from both queues first
  ARGV[7] off-net wait, milliseconds (0: never wait)
  ARGV[8] ignore-windows score: entries scored at or below it ignore the send windows

  Returns {code, retryAfterMs, id1, meta1, sim1, why1, id2, …} (sim: the SIM chosen, -1 when
  the phone has no default and none was chosen; why: sim_requested, sim_on_net, sim_default,
  on_net_sim_capped or off_net_after_wait):
    1  claimed (possibly nothing); retryAfterMs is 0, or when to come back: when the window's
       oldest parts leave it if pacing held messages back, or when an off-net wait ends, or when
       the send windows open (a minute at most: the windows may change meanwhile)
    0  nothing claimed because pacing is spent, or the phone cools down after Android's limit;
       retryAfterMs says when the oldest parts leave, or when the cool-down ends
   -1  no device state in Redis, or its open times do not cover now: the caller loads it from
       Postgres and calls again
   -2  the device is revoked
   -3  the device takes no new messages (outbound disabled or draining)
   -4  the device rests: its battery is low and not charging, or it has no service
]]
local rcall = redis.call
local state = rcall('HMGET', KEYS[4], 'revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim', 'resting', 'coolUntil', 'nets', 'prefixes', 'open')
-- A hash holding only what a heartbeat wrote after Redis lost the rest counts as missing, and so
-- does one written before carrier routing (no prefixes) or before send windows (no open).
if not state[1] or not state[4] or not state[10] or not state[11] then return {-1, 0} end
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
local offNetWait = tonumber(ARGV[7])

-- Outside the send windows, closedUntil is when they open next (the horizon if not before it).
local closedUntil = 0
if state[11] ~= '' then
  local from, horizon, times = string.match(state[11], '^(%d+)-(%d+)|(.*)$')
  horizon = tonumber(horizon)
  if now < tonumber(from) or horizon <= now then return {-1, 0} end
  closedUntil = horizon
  for s, e in string.gmatch(times, '(%d+)-(%d+)') do
    s, e = tonumber(s), tonumber(e)
    if s <= now and now < e then
      closedUntil = 0
      break
    end
    if s > now and s < closedUntil then closedUntil = s end
  end
end
local windowKey = ARGV[4] .. 'w'
local windowStart = now - 60000

local windowSumKey = ARGV[4] .. 'ws'

local function partsOf(entries)
  local parts = 0
  for i = 1, #entries do parts = parts + tonumber(string.match(entries[i], '^(%d+):')) end
  return parts
end

-- The parts the phone was handed in the last 60 seconds, all SIMs together: a running sum beside
-- the window, less what leaves it, so a claim reads the entries that expired rather than the
-- whole window (thousands of entries on a phone whose pacing was raised). Without the sum (a
-- Redis that lost it) the window is summed once.
local windowUsed = tonumber(rcall('GET', windowSumKey) or '')
local sumMissing = windowUsed == nil
local expired = rcall('ZRANGEBYSCORE', windowKey, '-inf', windowStart)
if #expired > 0 then rcall('ZREMRANGEBYSCORE', windowKey, '-inf', windowStart) end
local oldest = rcall('ZRANGE', windowKey, 0, 0, 'WITHSCORES')
if #oldest == 0 then
  windowUsed = 0
elseif windowUsed == nil then
  windowUsed = partsOf(rcall('ZRANGE', windowKey, 0, -1))
else
  windowUsed = windowUsed - partsOf(expired)
end
-- When the oldest claim leaves the window (a minute from now if nothing is in it yet).
local retryAfter = 60000
if #oldest > 0 then retryAfter = math.max(1, tonumber(oldest[2]) + 60000 - now) end
local windowAdd = 0
local windowEntries = {}

-- This phone's SIMs by network, the default first, and the organization's prefix table.
local simsOn = {}
for sim, net in string.gmatch(state[9] or '', '(%d+)=([^,]+)') do
  simsOn[net] = simsOn[net] or {}
  table.insert(simsOn[net], tonumber(sim))
end
local netOfPrefix, prefixLengths, seenLength = {}, {}, {}
for prefix, net in string.gmatch(state[10], '([^,=]+)=([^,]+)') do
  netOfPrefix[prefix] = net
  if not seenLength[#prefix] then
    seenLength[#prefix] = true
    prefixLengths[#prefixLengths + 1] = #prefix
  end
end
-- Longest prefix first: +261320 may be another network than +26132.
table.sort(prefixLengths, function(a, b) return a > b end)

local function networkOf(to)
  for _, len in ipairs(prefixLengths) do
    local net = netOfPrefix[string.sub(to, 1, len)]
    if net then return net end
  end
  return nil
end

-- Whether another sending phone of the organization has a SIM on `net` (two entries at most are read).
local otherOn = {}
local function anotherPhoneOn(net)
  if otherOn[net] == nil then
    otherOn[net] = false
    for _, m in ipairs(rcall('ZRANGEBYLEX', KEYS[6], '[' .. net .. '|', '(' .. net .. '}', 'LIMIT', 0, 2)) do
      if m ~= net .. '|' .. ARGV[1] then otherOn[net] = true end
    end
  end
  return otherOn[net]
end

local out = {1, 0}
local claimed = 0
local paced = false
-- The earliest end of an off-net wait that held a message back (0: none).
local waitEnds = 0
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

local function fitsDay(sim, seg)
  if simCap <= 0 then return true end
  local b = dayBudgetFor(sim)
  return b.day + b.add + seg <= simCap
end

-- The SIM a message goes out on and why, or nil and why not ('paced', 'wait' until waitEnd).
local function chooseSim(meta, seg, queuedAt, mayWait)
  local sim = meta['sim']
  if sim ~= nil and sim ~= cjson.null then
    if fitsDay(sim, seg) then return sim, 'sim_requested' end
    return nil, 'paced'
  end
  local net = networkOf(meta['to'])
  local capped = false
  if net and simsOn[net] then
    for _, s in ipairs(simsOn[net]) do
      if fitsDay(s, seg) then return s, 'sim_on_net' end
      capped = true
    end
  end
  local waited = false
  -- Only the organization's queue waits: a message pinned to this phone has no other way out.
  if net and mayWait and offNetWait > 0 and anotherPhoneOn(net) then
    local waitEnd = queuedAt + offNetWait
    if waitEnd > now then return nil, 'wait', waitEnd end
    waited = true
  end
  if not fitsDay(defaultSim, seg) then return nil, 'paced' end
  if waited then return defaultSim, 'off_net_after_wait' end
  if capped then return defaultSim, 'on_net_sim_capped' end
  return defaultSim, 'sim_default'
end

-- Pages of a queue read per pass: entries this phone must leave (withdrawn from it, waiting for
-- another network, outside its windows, paced) stay at the head, and a single page of max * 4
-- could hold nothing else, leaving the phone idle behind them while other work waited.
local PAGES = 4

-- Reads the meta of as many candidates as are still wanted with one HMGET, and moves the claimed
-- ones with one ZREM (with those whose meta is gone) and one ZADD: per message an HGET, a ZREM and
-- a ZADD made a 50-job claim 150 commands, each propagated to the AOF.
local function take(queue, upTo)
  local mayWait = queue == KEYS[2]
  local want = max * 4
  -- Entries earlier pages left in the queue: the next page starts after them.
  local left = 0
  for _ = 1, PAGES do
    local scored
    if upTo then
      scored = rcall('ZRANGEBYSCORE', queue, '-inf', upTo, 'WITHSCORES', 'LIMIT', left, want)
    else
      scored = rcall('ZRANGE', queue, left, left + want - 1, 'WITHSCORES')
    end
    local ids, scores = {}, {}
    for i = 1, #scored, 2 do
      ids[#ids + 1] = scored[i]
      scores[#scores + 1] = tonumber(scored[i + 1])
    end
    local pos = 1
    local removed = 0
    while claimed < max and pos <= #ids do
      local first = pos
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
          if tonumber(meta['exp']) > now and not avoided and (closedUntil == 0 or meta['iw'] == 1) then
            local seg = tonumber(meta['seg'])
            -- A message longer than the whole pace still goes, alone, into an empty window.
            local withinWindow = windowUsed + windowAdd + seg <= pace or (windowUsed + windowAdd == 0)
            local sim, why, waitEnd = nil, 'paced', nil
            if withinWindow then sim, why, waitEnd = chooseSim(meta, seg, scores[first + n - 1], mayWait) end
            if sim ~= nil then
              local b = dayBudgetFor(sim)
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
              out[#out + 1] = why
            elseif why == 'wait' then
              if waitEnds == 0 or waitEnd < waitEnds then waitEnds = waitEnd end
            else
              paced = true
            end
          end
        end
      end
      -- Messages whose meta is gone and messages claimed both leave the queue.
      if #leaving > 0 then rcall('ZREM', queue, unpack(leaving)) end
      if #claiming > 0 then rcall('ZADD', KEYS[5], unpack(claiming)) end
      removed = removed + #leaving
    end
    left = left + #ids - removed
    -- Done: enough claimed, the queue read to its end, or the phone's window full.
    if claimed >= max or #ids < want or windowUsed + windowAdd >= pace then break end
  end
end

if closedUntil > 0 then
  take(KEYS[1], ARGV[8])
  if claimed < max then take(KEYS[2], ARGV[8]) end
else
  take(KEYS[1], ARGV[6])
  if claimed < max then take(KEYS[2], ARGV[6]) end
  if claimed < max then take(KEYS[1]) end
  if claimed < max then take(KEYS[2]) end
end

if #windowEntries > 0 then
  rcall('ZADD', windowKey, unpack(windowEntries))
  rcall('PEXPIRE', windowKey, 120000)
end
if #windowEntries > 0 or #expired > 0 or sumMissing then rcall('SET', windowSumKey, windowUsed + windowAdd, 'PX', 120000) end
for simKey, b in pairs(spent) do
  if b.add > 0 then
    local dk = ARGV[4] .. simKey .. ':d' .. ARGV[5]
    rcall('INCRBY', dk, b.add)
    rcall('EXPIRE', dk, 172800)
  end
end

if claimed == 0 and paced and waitEnds == 0 then return {0, retryAfter} end
if paced then out[2] = retryAfter end
-- A phone that left an off-net message waiting comes back when the wait ends, to take it then.
if waitEnds > 0 and (out[2] == 0 or waitEnds - now < out[2]) then out[2] = waitEnds - now end
-- Outside the windows: come back when they open, or in a minute (they may have changed).
if closedUntil > 0 then
  local opens = math.min(closedUntil - now, 60000)
  if out[2] == 0 or opens < out[2] then out[2] = opens end
end
return out
