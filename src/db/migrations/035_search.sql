-- Search in the dashboard (issue 33): messages by text and recipient, received SMS by text and
-- sender, any part of them (`345 67`, `loyer`), within one organization. Trigram GIN indexes
-- with the organization as their first column (btree_gin), so a search reads the organization's
-- matches only, never another's. On the partitioned messages table the index is made on every
-- month's partition and on those made later. Both extensions are trusted: the database's owner
-- may create them. Building them over millions of stored messages takes minutes, once.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX messages_search ON messages USING gin (org_id, body gin_trgm_ops, to_number gin_trgm_ops);
CREATE INDEX incoming_search ON incoming_messages USING gin (org_id, body gin_trgm_ops, from_number gin_trgm_ops);
