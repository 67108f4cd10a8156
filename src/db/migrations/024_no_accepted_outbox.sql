-- Sends have been written `queued` with their batch row since 011; only a database from before
-- then can hold messages still `accepted`, which the old reconciler queued one by one. They
-- become `queued` here, with the timeline row that reconciler wrote, and their batches are
-- marked undispatched so the batch reconciler puts them on the dispatch queues.
UPDATE batches SET dispatched_at = NULL
WHERE id IN (SELECT DISTINCT batch_id FROM messages WHERE status = 'accepted');

INSERT INTO message_events (message_id, from_status, to_status, source, at)
SELECT id, NULL, 'queued', 'system', now() FROM messages WHERE status = 'accepted';

UPDATE messages SET status = 'queued' WHERE status = 'accepted';

DROP INDEX IF EXISTS messages_accepted;
