-- The silence sweep looks for claimed/sending messages by age across all phones.
CREATE INDEX messages_in_flight_age ON messages (updated_at) WHERE status IN ('claimed', 'sending');
CREATE INDEX messages_queued_expiry ON messages (expires_at) WHERE status = 'queued';
