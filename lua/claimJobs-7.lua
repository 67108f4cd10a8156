--[[
  Hands queued messages to one phone. One call decides, so no message can be handed to two
  phones. The policy, in the order it decides (each part named is a file in lua/includes/):

   0. Nothing queued for the phone (its queue and the organization's both empty) → 1, nothing
      claimed, whatever its state: a phone opening its socket with no work waiting costs no
      load of its state (its first heartbeat loads it).
   1. The phone's state (deviceState; the organization's prefix table, KEYS[7]): missing, or
      incomplete (only what a heartbeat wrote after Redis lost the rest, or written before send
      windows) → -1, and so is a missing prefix table; revoked → -2; outbound disabled or
      draining → -3; resting (battery low and not charging, or no service) → -4.
   2. Cool-down: a phone that hit Android's limit takes nothing until coolUntil → 0.
   3. Send windows (sendWindows): open times that no longer cover now → -1. While the windows are
      closed only messages whose dispatch JSON says they ignore them (`iw`) are taken; queued a
      long way ahead (entries.ts), they are found below ARGV[8] whatever waits.
   4. Pacing (pacingWindow): the parts the phone was handed in the last 60 seconds, all SIMs
      together, against its pace; each SIM's day (simDayCaps) against the phone's simCap.
   5. The queues, in order: urgent entries (scored at or below ARGV[6]) of the phone's own queue
      (messages pinned to it), then of the organization's; then the rest of its own queue, then
      of the organization's. Windows closed: only the entries below ARGV[8], own queue first.
   6. Each entry, in queue order (takeFromQueue): meta gone → dropped from the queue; expired,
      withdrawn from this phone a while (`av`/`avu`), or outside the windows → left; pacing window
      full → left (paced); else its SIM (simChoice: the requested SIM, a SIM on the recipient's
      network by the prefix table (carrierRouting), an off-net wait for a phone on that network,
      or the default SIM; each within its SIM's day) → claimed, or left (paced, or waiting).
   7. The claim's writes: the claiming set, the pacing window and its sum, each SIM's day.
   8. When to come back (retryAfterMs): when the window's oldest parts leave it if pacing held a
      message back, sooner if an off-net wait ends first, and while the windows are closed when
      they open (a minute at most: the windows may change meanwhile).

  KEYS[1] the device queue (sorted set)
  KEYS[2] the organization queue (sorted set)
  KEYS[3] the queue meta hash (message id -> dispatch JSON; `av`/`avu`: a device that may not
          take the message before that time in ms, the phone it was withdrawn from or failed on)
  KEYS[4] the device state hash (includes/deviceState)
  KEYS[5] the claiming set (sorted set: message id -> claim time ms)
  KEYS[6] the organization's sending phones by network (sorted set, score 0: `<carrier>|<deviceId>`)
  KEYS[7] the organization's carrier prefix table (string: `+26132=orange,…`; '' for none)

  ARGV[1] device id
  ARGV[2] max jobs
  ARGV[3] now, milliseconds
  ARGV[4] pacing key prefix (…:pace:<deviceId>:), same hash tag: <prefix>w is the phone's
          window (sorted set: '<parts>:<claim time>:<first message id>', one per claim, scored
          by its time), <prefix>ws the sum of its parts, <prefix><sim>:d<day> each SIM's count
          of the day
  ARGV[5] UTC day yyyymmdd
  ARGV[6] urgent score: entries scored at or below it (high-priority messages, queued an hour
          ahead, and messages that waited longer than that) are taken from both queues first
  ARGV[7] off-net wait, milliseconds (0: never wait)
  ARGV[8] ignore-windows score: entries scored at or below it ignore the send windows

  Returns {code, retryAfterMs, id1, meta1, sim1, why1, id2, …} (sim: the SIM chosen, -1 when
  the phone has no default and none was chosen; why: sim_requested, sim_on_net, sim_default,
  on_net_sim_capped or off_net_after_wait):
    1  claimed (possibly nothing); retryAfterMs is 0, or when to come back (step 8)
    0  nothing claimed because pacing is spent, or the phone cools down after Android's limit;
       retryAfterMs says when the oldest parts leave, or when the cool-down ends
   -1  no device state or prefix table in Redis, or its open times do not cover now: the caller
       loads it from Postgres and calls again
   -2  the device is revoked
   -3  the device takes no new messages (outbound disabled or draining)
   -4  the device rests: its battery is low and not charging, or it has no service
]]
local rcall = redis.call
--- @include "includes/deviceState"
--- @include "includes/sendWindows"
--- @include "includes/pacingWindow"
--- @include "includes/simDayCaps"
--- @include "includes/carrierRouting"
--- @include "includes/simChoice"
--- @include "includes/takeFromQueue"

-- 0. Nothing queued.
if rcall('ZCARD', KEYS[1]) == 0 and rcall('ZCARD', KEYS[2]) == 0 then return {1, 0} end

-- 1. The phone's state.
local state = readDeviceState(KEYS[4])
local prefixes = rcall('GET', KEYS[7])
if not state.revoked or not state.pace or not prefixes or not state.open then return {-1, 0} end
if state.revoked == '1' then return {-2, 0} end
if state.outbound ~= '1' or state.draining == '1' then return {-3, 0} end
if state.resting == '1' then return {-4, 0} end

-- 2. Cool-down.
local max = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local coolUntil = tonumber(state.coolUntil) or 0
if coolUntil > now then return {0, coolUntil - now} end

-- 3. Send windows.
local closedUntil = windowsClosedUntil(state.open, now)
if not closedUntil then return {-1, 0} end

-- 4. Pacing, and what the SIM choice reads.
local window = openPacingWindow(ARGV[4], now, ARGV[3], tonumber(state.pace))
local days = simDays(ARGV[4], ARGV[5], tonumber(state.simCap) or 0)
local chooseSim = simChooser(
  simsByNetwork(state.nets), networkFinder(prefixes), otherPhoneFinder(KEYS[6], ARGV[1]),
  days, tonumber(state.defaultSim) or -1, tonumber(ARGV[7]), now)

-- 5, 6. The queues, in order.
local c = {
  max = max, now = now, nowText = ARGV[3], deviceId = ARGV[1], closedUntil = closedUntil,
  metaKey = KEYS[3], claimingKey = KEYS[5],
  window = window, days = days, chooseSim = chooseSim,
  claimed = 0, out = {1, 0}, paced = false, waitEnds = 0,
}
if closedUntil > 0 then
  takeFromQueue(c, KEYS[1], ARGV[8], false)
  if c.claimed < max then takeFromQueue(c, KEYS[2], ARGV[8], true) end
else
  takeFromQueue(c, KEYS[1], ARGV[6], false)
  if c.claimed < max then takeFromQueue(c, KEYS[2], ARGV[6], true) end
  if c.claimed < max then takeFromQueue(c, KEYS[1], nil, false) end
  if c.claimed < max then takeFromQueue(c, KEYS[2], nil, true) end
end

-- 7. The claim's writes.
savePacingWindow(window)
saveSimDays(days)

-- 8. When to come back.
local out = c.out
if c.claimed == 0 and c.paced and c.waitEnds == 0 then return {0, window.retryAfter} end
if c.paced then out[2] = window.retryAfter end
-- A phone that left an off-net message waiting comes back when the wait ends, to take it then.
if c.waitEnds > 0 and (out[2] == 0 or c.waitEnds - now < out[2]) then out[2] = c.waitEnds - now end
-- Outside the windows: come back when they open, or in a minute (they may have changed).
if closedUntil > 0 then
  local opens = math.min(closedUntil - now, 60000)
  if out[2] == 0 or opens < out[2] then out[2] = opens end
end
return out
