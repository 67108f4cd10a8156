-- queueDepth counts the queued messages pinned to a phone; this keeps that count an index scan.
CREATE INDEX messages_pinned_queued ON messages (requested_device_id) WHERE status = 'queued';
