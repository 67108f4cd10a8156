--[[
  The optional daily cap per SIM (the phone's simCap, 0: none): each SIM's parts of the UTC day
  are counted in <pacing prefix><sim>:d<yyyymmdd>, kept two days.
]]

-- The SIMs' days of one claim: by SIM, `day`, what its daily key held when first asked, and
-- `add`, what this claim spent.
local function simDays(prefix, utcDay, simCap)
  return {prefix = prefix, utcDay = utcDay, cap = simCap, spent = {}}
end

local function simDay(days, sim)
  local simKey = tostring(sim)
  local b = days.spent[simKey]
  if b == nil then
    -- Without a cap the day's count is only raised, never read.
    local day = 0
    if days.cap > 0 then day = tonumber(rcall('GET', days.prefix .. simKey .. ':d' .. days.utcDay) or '0') end
    b = {day = day, add = 0}
    days.spent[simKey] = b
  end
  return b
end

-- Whether `seg` more parts on this SIM stay within its day.
local function fitsSimDay(days, sim, seg)
  if days.cap <= 0 then return true end
  local b = simDay(days, sim)
  return b.day + b.add + seg <= days.cap
end

local function spendSimDay(days, sim, seg)
  local b = simDay(days, sim)
  b.add = b.add + seg
end

local function saveSimDays(days)
  for simKey, b in pairs(days.spent) do
    if b.add > 0 then
      local dk = days.prefix .. simKey .. ':d' .. days.utcDay
      rcall('INCRBY', dk, b.add)
      rcall('EXPIRE', dk, 172800)
    end
  end
end
