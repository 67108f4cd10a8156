-- The send path's outbox is the batch: a batch's messages are written `queued` with the batch
-- row, and dispatched_at is set once they are on the Redis dispatch queues. The reconciler
-- looks only at batches still undispatched after a grace period (a crash or a Redis outage).
ALTER TABLE batches ADD COLUMN dispatched_at timestamptz;
UPDATE batches SET dispatched_at = created_at;
CREATE INDEX batches_undispatched ON batches (created_at) WHERE dispatched_at IS NULL;

-- Fewer indexes on the hottest table: the daily count reads the (org_id, id) index, ids being
-- time-sortable, and the queued-expiry index of 010 covers the sweep.
DROP INDEX messages_daily;
DROP INDEX messages_queued;
DROP INDEX messages_pinned_queued;
CREATE INDEX messages_pinned_queued ON messages (requested_device_id) WHERE status = 'queued' AND requested_device_id IS NOT NULL;
