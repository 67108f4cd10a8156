-- The webhook inspector (issue 33): each delivery keeps its last 10 attempts (start, duration,
-- status, the first KiB of the answer as text, or the error), written by the same statement that
-- records the attempt, so the hot path makes no extra round trip. A JSON array on the row rather
-- than a table: one row per attempt would be an insert (and an index) per attempt. The column is
-- in no index, so recording stays a heap-only update while the row fits its page.
ALTER TABLE webhook_deliveries ADD COLUMN attempt_log jsonb NOT NULL DEFAULT '[]'::jsonb;
