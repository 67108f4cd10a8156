--[[
  Admits a send request: replays or refuses a reused idempotency key, then counts the request's
  messages against the organization's daily limit and records the count as a reservation. All in
  one step, so concurrent requests with one key create one batch, and concurrent sends never pass
  the limit together.

  A pending key whose request was admitted more than ARGV[7] ms ago is taken over: its process
  most likely died (a healthy send commits in well under a second). Taking over is safe even if
  that request is only slow: the batch row's unique (org, key) index in Postgres lets one batch
  commit, and the other request answers that batch. The retry inherits the taken-over request's
  reservation (at most one of the two batches commits, so the key's count is held once): the
  counter does not move and a full day does not refuse the retry of its own dead request.

  KEYS[1] idempotency record (hash: h = request hash, s = pending|done, r = stored response,
          t = admission time in ms and b = batch id while pending)
          (a placeholder key of the same organization when the request has no key)
  KEYS[2] the organization's daily counter for the current UTC day
  KEYS[3] the organization's reservation ledger (zset: "<batchId>:<count>[:<idempotency key>]"
          scored by admission ms)

  ARGV[1] 1 when the request carries an idempotency key, else 0
  ARGV[2] request hash
  ARGV[3] number of messages in the request
  ARGV[4] daily limit
  ARGV[5] seconds a pending idempotency record lives
  ARGV[6] now, in ms (the caller's clock; also the reservation's score)
  ARGV[7] ms after which a pending key may be taken over
  ARGV[8] the batch id this request will commit (its reservation and its hold on the key)
  ARGV[9] the idempotency key (empty without one), part of the reservation

  Returns {code, payload}:
    1  admitted; payload is the day's count after this request
    3  admitted by taking over a stale pending key whose reservation was settled already
       (counted anew); payload as for 1
    4  admitted by taking over a stale pending key, inheriting its reservation; payload is the
       day's count (unchanged)
    2  replay; payload is the stored response
   -1  the key was used with a different request
   -2  the key's first request is still in flight (admitted less than ARGV[7] ms ago)
   -3  daily limit reached; payload is the day's count so far
   -4  the daily counter is not in Redis: the caller seeds it from Postgres and calls again
]]
local rcall = redis.call
local useKey = ARGV[1] == '1'
local now = tonumber(ARGV[6])
local admitted = 1
local function reservation(batchId)
  if useKey then return batchId .. ':' .. ARGV[3] .. ':' .. ARGV[9] end
  return batchId .. ':' .. ARGV[3]
end
local function hold()
  rcall('ZADD', KEYS[3], now, reservation(ARGV[8]))
  if useKey then
    rcall('HSET', KEYS[1], 'h', ARGV[2], 's', 'pending', 't', now, 'b', ARGV[8])
    rcall('EXPIRE', KEYS[1], tonumber(ARGV[5]))
  end
end

if useKey then
  local existing = rcall('HMGET', KEYS[1], 'h', 's', 'r', 't', 'b')
  if existing[1] then
    if existing[1] ~= ARGV[2] then return {-1, ''} end
    if existing[2] == 'done' then return {2, existing[3]} end
    -- a record without t (written before takeovers existed) counts as stale
    if now - (tonumber(existing[4]) or 0) < tonumber(ARGV[7]) then return {-2, ''} end
    -- same request hash, so the same count: the taken-over reservation is this one's
    if existing[5] and rcall('ZREM', KEYS[3], reservation(existing[5])) == 1 then
      hold()
      return {4, rcall('GET', KEYS[2]) or ''}
    end
    admitted = 3
  end
end

local count = rcall('GET', KEYS[2])
if not count then return {-4, ''} end
local after = tonumber(count) + tonumber(ARGV[3])
if after > tonumber(ARGV[4]) then return {-3, count} end

rcall('INCRBY', KEYS[2], ARGV[3])
hold()
return {admitted, tostring(after)}
