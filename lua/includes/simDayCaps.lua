--[[
  The optional daily cap per SIM (the phone's simCap, 0: none): each SIM's parts of the UTC day
  are counted in <pacing prefix><sim>:d<yyyymmdd>, kept two days.
]]

-- Each SIM's parts today, read from its daily key when first asked, plus what this claim spends.
local function simDays(prefix, utcDay, simCap)
  local days = {}
  -- By SIM: `day`, what its daily key held, and `add`, what this claim spent.
  local spent = {}

  local function budget(sim)
    local simKey = tostring(sim)
    if spent[simKey] == nil then
      local usedToday = tonumber(rcall('GET', prefix .. simKey .. ':d' .. utcDay) or '0')
      spent[simKey] = {day = usedToday, add = 0}
    end
    return spent[simKey]
  end

  -- Whether `seg` more parts on this SIM stay within its day.
  function days.fits(sim, seg)
    if simCap <= 0 then return true end
    local b = budget(sim)
    return b.day + b.add + seg <= simCap
  end

  function days.spend(sim, seg)
    local b = budget(sim)
    b.add = b.add + seg
  end

  function days.save()
    for simKey, b in pairs(spent) do
      if b.add > 0 then
        local dk = prefix .. simKey .. ':d' .. utcDay
        rcall('INCRBY', dk, b.add)
        rcall('EXPIRE', dk, 172800)
      end
    end
  end

  return days
end
