-- Scheduled sends (issue 21; docs/decisions.md "Scheduled sends"). A send with a `sendAt` writes
-- its messages `accepted` with the time they are due; the worker's mover queues them then
-- (src/scheduling/). NULL for every send queued at once.
ALTER TABLE messages ADD COLUMN send_at timestamptz;

-- One index for the scheduler's three reads, holding only scheduled messages not yet claimed:
-- the mover's read of the batches it popped from Redis (send_at and batch_id, accepted or
-- already queued by a mover that died before its enqueue), the rebuild of the Redis schedule
-- after a loss (every accepted batch), and the backstop's look for overdue accepted batches (a
-- range of send_at, normally empty).
CREATE INDEX messages_scheduled ON messages (send_at, batch_id) WHERE send_at IS NOT NULL AND status IN ('accepted', 'queued');
