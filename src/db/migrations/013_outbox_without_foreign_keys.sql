-- The outbox tables are written in bulk on hot paths: events by every send, status change and
-- received SMS, deliveries by the relay (one per event and subscribed endpoint). A foreign-key
-- check costs an index probe and a row lock per inserted row. Organizations are never deleted
-- and their events are written only by code that has just read the organization; deliveries
-- only by the relay, from events it has just read and locked, and events are never deleted.
-- Measured (pg_stat_statements, bench webhooks): the relay's delivery insert 1,919 -> 1,011 ms
-- of execution for 30,000 rows. The endpoint key stays: deleting an endpoint takes its
-- deliveries with it (ON DELETE CASCADE).
ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_id_fkey;
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_org_id_fkey;
