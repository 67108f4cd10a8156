--[[
  Which of an organization's phones are revoked, as their dispatch states say (the `revoked`
  field, src/dispatch-queue/device-state.ts): the quick check made before every socket frame.
  One call for the frames of a batch: a fleet reporting at once checks thousands.

  KEYS[1] the state key prefix (…:dev:): <prefix><deviceId> is a phone's state hash. It holds the
          organization's hash tag, so the call goes to the slot of every key it reads.

  ARGV    device ids

  Returns, per device id in order, 1 when its state says revoked, else 0 (no state in Redis
  included: the claim then loads it, and finds the revocation in Postgres).
]]
local rcall = redis.call
local revoked = {}
for i = 1, #ARGV do
  revoked[i] = rcall('HGET', KEYS[1] .. ARGV[i], 'revoked') == '1' and 1 or 0
end
return revoked
