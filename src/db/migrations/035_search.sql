-- Search in the dashboard: received SMS by text and sender, any part of them (`loyer`, `555 00`),
-- within one organization. A trigram GIN index with the organization as its first column
-- (btree_gin), so a search reads the organization's matches only, never another's. Both
-- extensions are trusted: the database's owner may create them.
-- Messages have no such index: on their table it halved the rate of inserts (the bulk-send
-- path); their text is searched in the organization's newest messages instead (src/search).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX incoming_search ON incoming_messages USING gin (org_id, body gin_trgm_ops, from_number gin_trgm_ops);
