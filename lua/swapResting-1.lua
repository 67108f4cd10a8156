--[[
  Sets the `resting` field of phones' dispatch states (src/dispatch-queue/device-state.ts) and
  answers what each was before: a heartbeat that changes it makes the caller load the phone's
  whole state, or wake it. One call for a batch of phones of one organization: a fleet opening
  its sockets heartbeats all at once.

  KEYS[1] the state key prefix (…:dev:): <prefix><deviceId> is a phone's state hash. It holds the
          organization's hash tag, so the call goes to the slot of every key it touches.

  ARGV    per phone, 2 values: deviceId, then '1' (resting) or '0'. A phone listed twice sees
          its first write, in order.

  Returns, per phone in order, the value before ('1', '0', or false when the hash had none).
]]
local rcall = redis.call
local was = {}
for i = 1, #ARGV, 2 do
  local key = KEYS[1] .. ARGV[i]
  was[#was + 1] = rcall('HGET', key, 'resting')
  rcall('HSET', key, 'resting', ARGV[i + 1])
end
return was
