--[[
  Releases a send request's admission when its batch did not commit: refunds its count and frees
  its idempotency key. Used by the request itself when it fails, and by the reconciler for a
  reservation whose process died before committing.

  Refunds only a reservation still in the ledger, so a release runs at most once (the request
  and the reconciler may both try), and after Redis lost its data (the counter was then recounted
  from Postgres, without this request) it refunds nothing. Frees the key only while this request
  holds it: a retry may have taken it over, or the key may be done.

  A request that inherited its reservation from a taken-over one does not refund it itself: when
  its key's batch exists (committed by the other) the count stands ('drop'); when it failed, the
  other may still commit, so the reservation stays for the reconciler to settle ('keep').

  KEYS[1] idempotency record (or the organization's placeholder key)
  KEYS[2] the daily counter the reservation was counted on
  KEYS[3] the reservation ledger

  ARGV[1] the reservation ("<batchId>:<count>[:<key>]")
  ARGV[2] count to refund
  ARGV[3] the batch id (the hold on the key)
  ARGV[4] refund | drop | keep

  Returns 1 when the count was refunded, else 0.
]]
local rcall = redis.call
local refunded = 0
if ARGV[4] ~= 'keep' and rcall('ZREM', KEYS[3], ARGV[1]) == 1 and ARGV[4] == 'refund' and rcall('EXISTS', KEYS[2]) == 1 then
  rcall('DECRBY', KEYS[2], ARGV[2])
  refunded = 1
end
local held = rcall('HMGET', KEYS[1], 's', 'b')
if held[1] == 'pending' and held[2] == ARGV[3] then rcall('DEL', KEYS[1]) end
return refunded
