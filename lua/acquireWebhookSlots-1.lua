--[[
  Takes free delivery slots of one webhook endpoint, so that at most ARGV[2] deliveries are in
  flight to it across every worker process. Members are lanes (a worker's sender that holds a
  slot while it has deliveries to send); scores are the times their slots expire unless
  refreshed, so a worker that dies holding slots blocks them only until then.

  KEYS[1]  the endpoint's slots (sorted set: lane -> expiry, ms)

  ARGV[1]  now (ms); slots expired by then are freed
  ARGV[2]  the endpoint's limit of slots
  ARGV[3]  expiry of the slots taken (ms)
  ARGV[4]  time to live of the whole set (ms)
  ARGV[5..] the lanes asking, in order

  Returns how many of the lanes got a slot: always the first ones.
]]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local free = tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[1])
local granted = 0
for i = 5, #ARGV do
  if granted >= free then break end
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[i])
  granted = granted + 1
end
if granted > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return granted
