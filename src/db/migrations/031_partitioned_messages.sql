-- Messages and their timeline, partitioned by month (issue 22; docs/decisions.md "Partitioned
-- messages"). The partition key is the message id: ids start with their creation time
-- (src/ids/ids.ts), so a month is a range of ids, and every read and change by id (the hot
-- paths) is pruned to one partition. The timeline is partitioned by message_id on the same
-- bounds, so a message and its timeline always share a month. Retention drops whole months
-- (src/messages/partitions/), never deletes rows.
--
-- A database holding messages keeps its tables: they become the first partition, from the
-- lowest id to the end of the current month, without copying a row. An empty one starts with
-- monthly partitions only. Either way the partitions of the next three months are made here and
-- kept ahead by the worker. There is no DEFAULT partition: an insert outside every partition
-- fails rather than fill a table that retention could never drop by month.

-- The smallest message id made at `at`: 'msg_' and 10 Crockford base32 characters of
-- milliseconds, as idFloor('message', ms) in src/ids/ids.ts.
CREATE FUNCTION message_id_floor(at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'msg_' || string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((ms >> (5 * (9 - i))) & 31)::int + 1, 1), '' ORDER BY i)
  FROM (SELECT floor(extract(epoch FROM at) * 1000)::bigint AS ms) t, generate_series(0, 9) AS i
$$;

-- Makes the partitions of `months` months from the month (UTC) of `first`, those missing: an
-- empty table attached under SHARE UPDATE EXCLUSIVE (CREATE TABLE ... PARTITION OF would lock
-- the whole table against sends and reads). A month the first partition (rows from before
-- partitioning) already covers is skipped. Returns how many months it made.
CREATE FUNCTION create_message_partitions(first timestamptz, months integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  month timestamptz;
  suffix text;
  lo text;
  hi text;
  made integer := 0;
BEGIN
  FOR n IN 0 .. months - 1 LOOP
    month := date_trunc('month', first, 'UTC') + make_interval(months => n);
    suffix := to_char(month AT TIME ZONE 'UTC', 'YYYY_MM');
    lo := message_id_floor(month);
    hi := message_id_floor(month + interval '1 month');
    CONTINUE WHEN to_regclass('messages_' || suffix) IS NOT NULL;
    BEGIN
      EXECUTE format('CREATE TABLE %I (LIKE messages INCLUDING DEFAULTS)', 'messages_' || suffix);
      EXECUTE format('ALTER TABLE messages ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', 'messages_' || suffix, lo, hi);
      EXECUTE format('CREATE TABLE %I (LIKE message_events INCLUDING DEFAULTS)', 'message_events_' || suffix);
      EXECUTE format('ALTER TABLE message_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', 'message_events_' || suffix, lo, hi);
      made := made + 1;
    EXCEPTION WHEN invalid_object_definition THEN
      -- "would overlap partition": the month is (partly) in the first partition.
      NULL;
    END;
  END LOOP;
  RETURN made;
END $$;

ALTER TABLE messages RENAME TO messages_before_partitioning;
ALTER TABLE message_events RENAME TO message_events_before_partitioning;
ALTER INDEX messages_pkey RENAME TO messages_before_partitioning_pkey;
ALTER INDEX messages_org_status RENAME TO messages_before_partitioning_org_status;
ALTER INDEX messages_queued_expiry RENAME TO messages_before_partitioning_queued_expiry;
ALTER INDEX messages_in_flight RENAME TO messages_before_partitioning_in_flight;
ALTER INDEX messages_pinned_queued RENAME TO messages_before_partitioning_pinned_queued;
ALTER INDEX messages_org_recipient RENAME TO messages_before_partitioning_org_recipient;
ALTER INDEX messages_auto_resend_due RENAME TO messages_before_partitioning_auto_resend_due;
ALTER INDEX messages_scheduled RENAME TO messages_before_partitioning_scheduled;
ALTER INDEX message_events_pkey RENAME TO message_events_before_partitioning_pkey;
-- A partitioned table's unique index must hold the partition key, which would make this one
-- meaningless: one automatic resend per message is now claimed on the failed message's row, in
-- the resend's transaction (src/messages/auto-resend/sql/claim-auto-resend.ts). The index stays
-- as a plain one for the sweep's "resend made already?" look-up.
DROP INDEX messages_one_auto_resend;
-- The tally triggers move to the partitioned table (a partition's statement triggers would only
-- fire for statements naming it).
DROP TRIGGER messages_tally_insert ON messages_before_partitioning;
DROP TRIGGER messages_tally_update ON messages_before_partitioning;
DROP TRIGGER messages_tally_delete ON messages_before_partitioning;
ALTER SEQUENCE message_events_id_seq OWNED BY NONE;

CREATE TABLE messages (LIKE messages_before_partitioning INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (id);
ALTER TABLE messages ADD PRIMARY KEY (id);
CREATE INDEX messages_org_status ON messages (org_id, status, id DESC);
CREATE INDEX messages_queued_expiry ON messages (expires_at) WHERE status = 'queued';
CREATE INDEX messages_in_flight ON messages (device_id, updated_at) WHERE status IN ('claimed', 'sending');
CREATE INDEX messages_pinned_queued ON messages (requested_device_id) WHERE status = 'queued' AND requested_device_id IS NOT NULL;
CREATE INDEX messages_org_recipient ON messages (org_id, to_number, id DESC);
CREATE INDEX messages_auto_resend_due ON messages (failed_at) WHERE status = 'failed' AND auto_resends_left > 0;
CREATE INDEX messages_scheduled ON messages (send_at, batch_id) WHERE send_at IS NOT NULL AND status IN ('accepted', 'queued');
CREATE INDEX messages_auto_resend_of ON messages (resend_of_id) WHERE auto_resend;

CREATE TRIGGER messages_tally_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION tally_inserted_messages();
CREATE TRIGGER messages_tally_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION tally_updated_messages();
CREATE TRIGGER messages_tally_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION tally_deleted_messages();

CREATE TABLE message_events (LIKE message_events_before_partitioning INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (message_id);
ALTER TABLE message_events ADD PRIMARY KEY (message_id, id);
ALTER SEQUENCE message_events_id_seq OWNED BY message_events.id;

DO $$
DECLARE
  next_month timestamptz := date_trunc('month', now(), 'UTC') + interval '1 month';
BEGIN
  IF EXISTS (SELECT 1 FROM messages_before_partitioning) OR EXISTS (SELECT 1 FROM message_events_before_partitioning) THEN
    -- The old tables become the first partition as they are: their indexes match the new ones
    -- (attached, not rebuilt) but for messages_auto_resend_of, built here; the bound is checked
    -- by one scan of each.
    EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_before_partitioning FOR VALUES FROM (MINVALUE) TO (%L)', message_id_floor(next_month));
    EXECUTE format('ALTER TABLE message_events ATTACH PARTITION message_events_before_partitioning FOR VALUES FROM (MINVALUE) TO (%L)', message_id_floor(next_month));
    PERFORM create_message_partitions(next_month, 3);
  ELSE
    DROP TABLE messages_before_partitioning;
    DROP TABLE message_events_before_partitioning;
    PERFORM create_message_partitions(now(), 4);
  END IF;
END $$;
