--[[
  Reserves one password check before any hashing is done, or refuses it.

  Every path that checks a password (sign-in, password change) reserves first and hashes only
  with a reservation, so a burst of concurrent attempts gets no more checks than attempts made one
  by one. A check that succeeds gives its reservation back (lua/refundPasswordAttempt-3.lua); a
  failed one keeps it, and so counts as a failure for the rest of the window.

  The account's own limit is per client address (KEYS[2]): a stranger guessing from elsewhere
  cannot lock its owner out. KEYS[3] bounds guesses on one account across all addresses, far
  above what one address may try, against guessing spread over many addresses.

  KEYS[1] attempts from the client address, any account, in the current window
  KEYS[2] attempts on the account from that address
  KEYS[3] attempts on the account from every address

  ARGV[1] window length, milliseconds
  ARGV[2] attempts allowed per address
  ARGV[3] attempts allowed per account and address
  ARGV[4] attempts allowed per account

  Returns {code, waitMs}:
    1  reserved: each counter went up by one; waitMs is 0
    0  refused, nothing counted; waitMs is the time until the window of the counter at its
       limit ends
]]
local window = tonumber(ARGV[1])

for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then ttl = window end
    return {0, ttl}
  end
end

for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, window) end
end
return {1, 0}
