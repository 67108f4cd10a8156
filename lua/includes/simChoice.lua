--[[
  Which SIM a message goes out on, and why (the code of its `claimed` event,
  src/redis/scripts/claim-jobs.ts SIM_CHOICES; docs/decisions.md, "Carrier-aware routing"):
    sim_requested       the SIM the send named, if within its day (else the message waits: paced)
    sim_on_net          a SIM of this phone on the recipient's network within its day, the default first
    off_net_after_wait  the default SIM, after the off-net wait below ran out
    on_net_sim_capped   the default SIM, because its SIM on that network spent its day
    sim_default         the default SIM (-1: the phone's choice); outside its day, paced
  A message of the organization's queue whose network this phone has no usable SIM on waits up
  to offNetWait ms after it was queued (its score) while another sending phone has a SIM on that
  network, so that phone sends it on-net; a message pinned to this phone has no other way out.
]]
--- @include "includes/simDayCaps"

-- A function answering the SIM and why, or nil and why not ('paced'; 'wait' until a third value)
-- for a message's dispatch JSON, its parts, the queue it is read from and its id there (its
-- score says when it was queued: read only for an off-net wait), and whether it may wait.
-- simsOn, networkOf, anotherPhoneOn: includes/carrierRouting; days: includes/simDayCaps.
local function simChooser(simsOn, networkOf, anotherPhoneOn, days, defaultSim, offNetWait, now)
  return function(meta, seg, queue, id, mayWait)
    local sim = meta['sim']
    if sim ~= nil and sim ~= cjson.null then
      if fitsSimDay(days, sim, seg) then return sim, 'sim_requested' end
      return nil, 'paced'
    end
    local net = networkOf(meta['to'])
    local capped = false
    if net and simsOn[net] then
      for _, s in ipairs(simsOn[net]) do
        if fitsSimDay(days, s, seg) then return s, 'sim_on_net' end
        capped = true
      end
    end
    local waited = false
    if net and mayWait and offNetWait > 0 and anotherPhoneOn(net) then
      -- Its score in the queue: when it was queued (src/dispatch-queue/entries.ts).
      local waitEnd = tonumber(rcall('ZSCORE', queue, id)) + offNetWait
      if waitEnd > now then return nil, 'wait', waitEnd end
      waited = true
    end
    if not fitsSimDay(days, defaultSim, seg) then return nil, 'paced' end
    if waited then return defaultSim, 'off_net_after_wait' end
    if capped then return defaultSim, 'on_net_sim_capped' end
    return defaultSim, 'sim_default'
  end
end
