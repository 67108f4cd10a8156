-- The timeline is only ever read by message (GET /v1/messages/{id}, in id order). Keyed by
-- (message_id, id), one index serves that read and uniqueness; the separate primary key on id
-- was a second index insert on every status change, four per delivered message.
ALTER TABLE message_events DROP CONSTRAINT message_events_pkey;
DROP INDEX message_events_message;
ALTER TABLE message_events ADD PRIMARY KEY (message_id, id);
