--[[
  A phone's dispatch state: the hash src/dispatch-queue/device-state.ts writes (writeDeviceState), read
  by name. DEVICE_STATE_FIELDS there lists the same fields in the same order; a test holds the
  two alike (test/lua/device-state.test.ts).

    revoked, outbound, draining, resting   '1' or '0'
    pace        SMS parts the phone may send per rolling 60 seconds, all SIMs together
    simCap      parts per SIM per UTC day (0: no cap)
    defaultSim  the SIM a message goes out on when nothing else decides (-1: the phone's choice)
    coolUntil   ms until which a phone that hit Android's limit takes nothing (status reports write it)
    nets        its SIMs on a known network, `sim=carrier,…`, the default first (includes/carrierRouting)
    open        '' when no send windows apply, else `<from>-<horizon>|<start>-<end>,…` (includes/sendWindows)
]]
local DEVICE_STATE_FIELDS = {'revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim', 'resting', 'coolUntil', 'nets', 'open'}

-- The state hash's fields by name; a field the hash lacks is false (Redis's nil, as Lua gets it).
local function readDeviceState(key)
  local values = rcall('HMGET', key, unpack(DEVICE_STATE_FIELDS))
  local state = {}
  for i, field in ipairs(DEVICE_STATE_FIELDS) do state[field] = values[i] end
  return state
end
