--[[
  Looks up an API key's cached record and spends tokens of its request-rate bucket: one per
  request, for every request of the key that one API process gathered in one event-loop turn.

  KEYS[1] the key's record (JSON written by the API from Postgres, or the tombstone "revoked")
  KEYS[2] the key's token bucket (hash: tokens, ts)

  ARGV[1] now, milliseconds
  ARGV[2] default refill rate, tokens per second (the record's ratePerSecond wins)
  ARGV[3] default burst (the record's rateBurst wins)
  ARGV[4] requests to admit (default 1)

  Returns {code, record, retryAfterMs, granted}:
    1  allowed: the first `granted` requests (1 to ARGV[4]) pass; when fewer than asked,
       retryAfterMs says when the next token is back
    0  record not cached: the caller reads Postgres, caches it, and calls again
   -1  revoked
   -2  rate limited, none granted; retryAfterMs says when one token is back
]]
local rcall = redis.call
local record = rcall('GET', KEYS[1])
if not record then return {0, '', 0, 0} end
if record == 'revoked' then return {-1, '', 0, 0} end

local now = tonumber(ARGV[1])
local wanted = tonumber(ARGV[4]) or 1
local parsed = cjson.decode(record)
local rate = tonumber(parsed['ratePerSecond']) or tonumber(ARGV[2])
local burst = tonumber(parsed['rateBurst']) or tonumber(ARGV[3])

local bucket = rcall('HMGET', KEYS[2], 'tokens', 'ts')
local tokens = tonumber(bucket[1]) or burst
local ts = tonumber(bucket[2]) or now
if now > ts then tokens = math.min(burst, tokens + (now - ts) * rate / 1000) end

local function untilNextToken(left)
  return math.ceil((1 - left) * 1000 / rate)
end

if tokens < 1 then
  return {-2, '', untilNextToken(tokens), 0}
end
local granted = math.min(wanted, math.floor(tokens))
local left = tokens - granted
rcall('HSET', KEYS[2], 'tokens', tostring(left), 'ts', tostring(math.max(now, ts)))
rcall('PEXPIRE', KEYS[2], math.ceil(burst * 1000 / rate) + 1000)
local retryAfterMs = 0
if granted < wanted then retryAfterMs = untilNextToken(left) end
return {1, record, retryAfterMs, granted}
