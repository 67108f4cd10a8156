-- A foreign-key check per inserted message (500 per bulk send) costs more than the rest of the
-- row; organizations are never deleted, and messages are only written by the send path, which
-- has just read the organization. The constraint is dropped for the hot table only.
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_org_id_fkey;
