--[[
  Taking messages off one queue, in its order, for the claim `c`:
    c.max, c.now, c.deviceId, c.closedUntil   the claim's inputs (closedUntil: includes/sendWindows)
    c.nowText                                 now as ARGV[3] wrote it: a claim's score, not formatted again
    c.metaKey, c.claimingKey                  the queue meta hash and the claiming set
    c.window, c.days, c.chooseSim             includes/pacingWindow, simDayCaps, simChoice
    c.claimed, c.out                          how many were claimed, and the reply being built
    c.paced, c.waitEnds                       whether pacing held a message back, and the earliest
                                              end of an off-net wait that did (0: none)
  Per entry: its meta gone → it leaves the queue; expired, withdrawn from this phone (`av`/`avu`)
  or outside the send windows without `iw` → it stays; the pacing window full → it stays
  (paced); else the SIM choice decides: a SIM → claimed, or it stays (paced, or waiting).
  A claimed message leaves its queue for the claiming set (scored by claim time) and keeps its
  meta, until the caller confirms the claim in Postgres (lua/confirmClaims) or the recovery sweep
  puts it back.
]]
--- @include "includes/pacingWindow"
--- @include "includes/simDayCaps"

-- How far a pass reads, in pages of max * 4: entries this phone must leave (withdrawn from it,
-- waiting for another network, outside its windows, paced) stay at the head, and a single page
-- could hold nothing else, leaving the phone idle behind them while other work waited. The first
-- page is max entries only: when nothing is left behind, it is all the claim takes, and a page of
-- max * 4 was three quarters read for nothing (each entry a Lua string made).
local PAGES = 4

-- Takes from `queue` the entries scored up to `upTo` (nil: all). Reads the meta of as many
-- candidates as are still wanted with one HMGET, and moves the claimed ones with one ZREM (with
-- those whose meta is gone) and one ZADD: per message an HGET, a ZREM and a ZADD made a 50-job
-- claim 150 commands, each propagated to the AOF.
local function takeFromQueue(c, queue, upTo, mayWait)
  -- Locals rather than the fields of `c` in the loop below: it runs for every entry read.
  local max, now, nowText, deviceId, closedUntil = c.max, c.now, c.nowText, c.deviceId, c.closedUntil
  local metaKey, claimingKey = c.metaKey, c.claimingKey
  local window, days, chooseSim, out = c.window, c.days, c.chooseSim, c.out
  local claimed, paced, waitEnds = c.claimed, c.paced, c.waitEnds
  local reach = max * 4 * PAGES
  local want = max
  -- Entries earlier pages left in the queue: the next page starts after them.
  local left = 0
  while reach > 0 do
    want = math.min(want, reach)
    reach = reach - want
    -- Without scores: Redis 7.0 writes each score with printf's %.17g, three quarters of the time
    -- of reading a page of 40; only an off-net wait needs one, and simChoice asks for it (ZSCORE).
    local page
    if upTo then
      page = rcall('ZRANGEBYSCORE', queue, '-inf', upTo, 'LIMIT', left, want)
    else
      page = rcall('ZRANGE', queue, left, left + want - 1)
    end
    local count = #page
    local pos = 1
    local removed = 0
    while claimed < max and pos <= count do
      local slice = {}
      for i = pos, math.min(count, pos + (max - claimed) - 1) do slice[#slice + 1] = page[i] end
      pos = pos + #slice
      local raws = rcall('HMGET', metaKey, unpack(slice))
      local leaving, claiming = {}, {}
      for n, id in ipairs(slice) do
        local raw = raws[n]
        if not raw then
          leaving[#leaving + 1] = id
        else
          local meta = cjson.decode(raw)
          -- A message withdrawn from this phone (or failed on it) waits a while for another phone.
          local avoided = meta['av'] == deviceId and (tonumber(meta['avu']) or 0) > now
          if tonumber(meta['exp']) > now and not avoided and (closedUntil == 0 or meta['iw'] == 1) then
            local seg = tonumber(meta['seg'])
            local sim, why, waitEnd = nil, 'paced', nil
            if windowFits(window, seg) then sim, why, waitEnd = chooseSim(meta, seg, queue, id, mayWait) end
            if sim ~= nil then
              spendSimDay(days, sim, seg)
              windowAdd(window, seg, id)
              leaving[#leaving + 1] = id
              claiming[#claiming + 1] = nowText
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
      if #claiming > 0 then rcall('ZADD', claimingKey, unpack(claiming)) end
      removed = removed + #leaving
    end
    left = left + count - removed
    -- Done: enough claimed, the queue read to its end, or the phone's window full.
    if claimed >= max or count < want or windowFull(window) then break end
    want = max * 4
  end
  c.claimed, c.paced, c.waitEnds = claimed, paced, waitEnds
end
