--[[
  Looks up an API key's cached record and spends one token of its request-rate bucket.

  KEYS[1] the key's record (JSON written by the API from Postgres, or the tombstone "revoked")
  KEYS[2] the key's token bucket (hash: tokens, ts)

  ARGV[1] now, milliseconds
  ARGV[2] default refill rate, tokens per second (the record's ratePerSecond wins)
  ARGV[3] default burst (the record's rateBurst wins)

  Returns {code, record, retryAfterMs}:
    1  allowed
    0  record not cached: the caller reads Postgres, caches it, and calls again
   -1  revoked
   -2  rate limited; retryAfterMs says when one token is back
]]
local rcall = redis.call
local record = rcall('GET', KEYS[1])
if not record then return {0, '', 0} end
if record == 'revoked' then return {-1, '', 0} end

local now = tonumber(ARGV[1])
local parsed = cjson.decode(record)
local rate = tonumber(parsed['ratePerSecond']) or tonumber(ARGV[2])
local burst = tonumber(parsed['rateBurst']) or tonumber(ARGV[3])

local bucket = rcall('HMGET', KEYS[2], 'tokens', 'ts')
local tokens = tonumber(bucket[1]) or burst
local ts = tonumber(bucket[2]) or now
if now > ts then tokens = math.min(burst, tokens + (now - ts) * rate / 1000) end

if tokens < 1 then
  return {-2, '', math.ceil((1 - tokens) * 1000 / rate)}
end
rcall('HSET', KEYS[2], 'tokens', tostring(tokens - 1), 'ts', tostring(math.max(now, ts)))
rcall('PEXPIRE', KEYS[2], math.ceil(burst * 1000 / rate) + 1000)
return {1, record, 0}
