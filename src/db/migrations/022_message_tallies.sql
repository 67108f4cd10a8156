-- Counts of messages per organization, hour of creation (UTC) and current status, so that the
-- dashboard's figures never count rows of messages (docs/dashboard-api.md).
--
-- Writers never touch a shared counter row: a statement-level trigger appends one aggregated
-- delta row per (organization, hour, status) the statement changed, and the worker folds the
-- deltas into message_tallies (src/overview/tallies.ts). Readers add the deltas not yet folded.

CREATE TABLE message_tallies (
  org_id text NOT NULL,
  hour   timestamptz NOT NULL,
  status text NOT NULL,
  count  bigint NOT NULL,
  PRIMARY KEY (org_id, hour, status)
);

CREATE TABLE message_tally_deltas (
  id     bigserial PRIMARY KEY,
  org_id text NOT NULL,
  hour   timestamptz NOT NULL,
  status text NOT NULL,
  delta  integer NOT NULL
);
CREATE INDEX message_tally_deltas_org ON message_tally_deltas (org_id, hour);

CREATE FUNCTION tally_inserted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_tally_deltas (org_id, hour, status, delta)
  SELECT org_id, date_trunc('hour', created_at, 'UTC'), status, count(*) FROM inserted GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

-- No join of the two transition tables: the hot pool plans without hash and merge joins
-- (src/db/pool.ts), which would make it a nested loop, quadratic in the statement's rows. Each
-- old row counts -1 and each new row +1 under its own status; a row whose status did not change
-- cancels out (organization and creation hour never change).
CREATE FUNCTION tally_updated_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_tally_deltas (org_id, hour, status, delta)
  SELECT org_id, hour, status, sum(delta) FROM (
    SELECT org_id, date_trunc('hour', created_at, 'UTC') AS hour, status, -1 AS delta FROM before_rows
    UNION ALL
    SELECT org_id, date_trunc('hour', created_at, 'UTC'), status, 1 FROM after_rows
  ) d GROUP BY 1, 2, 3 HAVING sum(delta) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION tally_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_tally_deltas (org_id, hour, status, delta)
  SELECT org_id, date_trunc('hour', created_at, 'UTC'), status, -count(*) FROM deleted GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

-- Transition tables cannot be combined with a column list (UPDATE OF status): every UPDATE
-- statement runs the trigger, which writes only when a status changed.
CREATE TRIGGER messages_tally_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION tally_inserted_messages();
CREATE TRIGGER messages_tally_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_updated_messages();
CREATE TRIGGER messages_tally_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION tally_deleted_messages();

INSERT INTO message_tallies (org_id, hour, status, count)
SELECT org_id, date_trunc('hour', created_at, 'UTC'), status, count(*) FROM messages GROUP BY 1, 2, 3;
