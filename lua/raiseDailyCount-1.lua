--[[
  Raises an organization's daily counter to a floor counted in Postgres, never lowering it.

  After Redis lost its data the counter is seeded from the messages Postgres holds; a send
  admitted before the loss and committed after the seed is missing from it. Once every such send
  has committed or rolled back (the commit deadline), the worker counts again: the floor is the
  day's messages plus the sends still in flight, a count that can only be short of the truth
  (src/sending/reservations.ts), so raising to it never counts a message twice.

  KEYS[1] the daily counter

  ARGV[1] the floor

  Returns the counter after, or -1 when it is not in Redis (the next send seeds it anew).
]]
local count = redis.call('GET', KEYS[1])
if not count then return -1 end
local floor = tonumber(ARGV[1])
if tonumber(count) < floor then
  redis.call('SET', KEYS[1], floor, 'KEEPTTL')
  return floor
end
return tonumber(count)
