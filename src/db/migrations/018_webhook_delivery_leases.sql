-- A claim held the delivery by moving next_attempt_at (indexed by webhook_deliveries_due) to the
-- end of its lease, so every claim wrote a new entry in each of the table's four indexes, and
-- the delivery log showed the lease's end as the next attempt. The lease gets its own column, in
-- no index; pages keep some room (fillfactor), so a claim whose page has room is a heap-only
-- update (22% of them in the webhooks bench). A delivery is due when both next_attempt_at and
-- leased_until have passed (src/webhooks/worker/claim-deliveries.ts).
ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz;
ALTER TABLE webhook_deliveries SET (fillfactor = 80);
