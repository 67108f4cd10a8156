--[[
  Writes the dispatch state of phones of one organization, as Postgres has it
  (src/dispatch-queue/device-state.ts says what each field holds): each phone's state hash, its
  entries in the organization's netPhones set, and the organization's prefix table. One call
  for a batch of phones: a fleet opening its sockets syncs thousands at once.

  KEYS[1] the organization's netPhones set (`<carrier>|<deviceId>`, score 0)
  KEYS[2] the organization's carrier prefix table (string: `+26132=orange,…`; '' for none)
  KEYS[3] the state key prefix (…:dev:), same hash tag: <prefix><deviceId> is a phone's state hash

  ARGV[1] the prefix table
  ARGV[2] 'rebuild': netPhones and the prefix table are written anew (the carriers changed);
          '': the table is written only when Redis has none (a sync that read the carriers just
          before a change must not overwrite the newer table)
  ARGV[3] the organization's carriers, `orange,telma`: a phone's entry on each is removed
          before those it is sending on are added
  ARGV[4…] per phone, 11 values: deviceId, then revoked, outbound, draining, pace, simCap,
          defaultSim, resting, nets, open (the hash's fields but coolUntil, which status reports
          write), then the carriers it is sending on (`orange,telma`; '' when it is not sending)

  Returns the number of phones written.
]]
local rcall = redis.call
local FIELDS = {'revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim', 'resting', 'nets', 'open'}
local PER_PHONE = 11

local function split(list)
  local items = {}
  for item in string.gmatch(list, '[^,]+') do items[#items + 1] = item end
  return items
end

if ARGV[2] == 'rebuild' then
  rcall('DEL', KEYS[1])
  rcall('SET', KEYS[2], ARGV[1])
else
  rcall('SET', KEYS[2], ARGV[1], 'NX')
end

local carriers = split(ARGV[3])
local phones = 0
for base = 4, #ARGV, PER_PHONE do
  local deviceId = ARGV[base]
  local key = KEYS[3] .. deviceId
  local hash = {}
  for i, field in ipairs(FIELDS) do
    hash[2 * i - 1] = field
    hash[2 * i] = ARGV[base + i]
  end
  rcall('HSET', key, unpack(hash))
  -- Each phone's copy of the prefix table, from before the organization's key held it.
  rcall('HDEL', key, 'prefixes')
  for _, carrier in ipairs(carriers) do rcall('ZREM', KEYS[1], carrier .. '|' .. deviceId) end
  for _, net in ipairs(split(ARGV[base + PER_PHONE - 1])) do rcall('ZADD', KEYS[1], 0, net .. '|' .. deviceId) end
  phones = phones + 1
end
return phones
