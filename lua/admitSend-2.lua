--[[
  Admits a send request: replays or refuses a reused idempotency key, then counts the request's
  messages against the organization's daily limit. Both decisions in one step, so two concurrent
  requests with one key create one batch, and concurrent sends never pass the limit together.

  KEYS[1] idempotency record (hash: h = request hash, s = pending|done, r = stored response)
          (a placeholder key of the same organization when the request has no key)
  KEYS[2] the organization's daily counter for the current UTC day

  ARGV[1] 1 when the request carries an idempotency key, else 0
  ARGV[2] request hash
  ARGV[3] number of messages in the request
  ARGV[4] daily limit
  ARGV[5] seconds a pending idempotency record lives (a crashed request frees its key after this)

  Returns {code, payload}:
    1  admitted; payload is the day's count after this request
    2  replay; payload is the stored response
   -1  the key was used with a different request
   -2  the key's first request is still in flight
   -3  daily limit reached; payload is the day's count so far
   -4  the daily counter is not in Redis: the caller seeds it from Postgres and calls again
]]
local rcall = redis.call
local useKey = ARGV[1] == '1'

if useKey then
  local existing = rcall('HMGET', KEYS[1], 'h', 's', 'r')
  if existing[1] then
    if existing[1] ~= ARGV[2] then return {-1, ''} end
    if existing[2] == 'done' then return {2, existing[3]} end
    return {-2, ''}
  end
end

local count = rcall('GET', KEYS[2])
if not count then return {-4, ''} end
local after = tonumber(count) + tonumber(ARGV[3])
if after > tonumber(ARGV[4]) then return {-3, count} end

rcall('INCRBY', KEYS[2], ARGV[3])
if useKey then
  rcall('HSET', KEYS[1], 'h', ARGV[2], 's', 'pending')
  rcall('EXPIRE', KEYS[1], tonumber(ARGV[5]))
end
return {1, tostring(after)}
