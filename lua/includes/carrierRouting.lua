--[[
  Carrier routing: which network a recipient is on, from the organization's prefix table
  (`+26132=orange,…`, one copy per organization, src/orgs/carriers.ts encodePrefixes), and which
  of this phone's SIMs are on it, from its state's `nets` (`sim=carrier,…`, the default first;
  each SIM's network comes from its heartbeat's carrierName).
]]

-- The phone's SIMs by network, in the order given (the default first).
local function simsByNetwork(nets)
  local simsOn = {}
  for sim, net in string.gmatch(nets or '', '(%d+)=([^,]+)') do
    simsOn[net] = simsOn[net] or {}
    table.insert(simsOn[net], tonumber(sim))
  end
  return simsOn
end

-- A function answering the network of a number (nil: none of the table's). The table is read
-- at the first number asked: a claim that finds nothing to route parses nothing.
local function networkFinder(prefixes)
  local netOfPrefix, prefixLengths
  local function parse()
    netOfPrefix, prefixLengths = {}, {}
    local seenLength = {}
    for prefix, net in string.gmatch(prefixes, '([^,=]+)=([^,]+)') do
      netOfPrefix[prefix] = net
      if not seenLength[#prefix] then
        seenLength[#prefix] = true
        prefixLengths[#prefixLengths + 1] = #prefix
      end
    end
    table.sort(prefixLengths)
  end
  return function(to)
    if not netOfPrefix then parse() end
    -- Longest prefix first: +261320 may be another network than +26132.
    for i = #prefixLengths, 1, -1 do
      local net = netOfPrefix[string.sub(to, 1, prefixLengths[i])]
      if net then return net end
    end
    return nil
  end
end

-- A function answering whether another sending phone of the organization has a SIM on a network,
-- from its sending phones by network (sorted set, score 0: `<carrier>|<deviceId>`); two entries
-- at most are read per network, once per claim.
local function otherPhoneFinder(netPhonesKey, deviceId)
  local otherOn = {}
  return function(net)
    if otherOn[net] == nil then
      otherOn[net] = false
      for _, m in ipairs(rcall('ZRANGEBYLEX', netPhonesKey, '[' .. net .. '|', '(' .. net .. '}', 'LIMIT', 0, 2)) do
        if m ~= net .. '|' .. deviceId then otherOn[net] = true end
      end
    end
    return otherOn[net]
  end
end
