-- Messages by recipient (conversations, GET /v1/messages?to=, search by number) move from an
-- index of messages (migration 023) to a table written once per message. A status change is a
-- new row version of the message with an entry in every one of its indexes: the recipient's
-- index took one at each of a message's four or five versions, ~20% of Postgres's write work
-- over a message's life (bench/README.md, session 28). A row here is written with its message,
-- in the same statement, and never changes.
--
-- Partitioned on the message id with the months of messages: made by create_message_partitions,
-- dropped with its month by retention.
CREATE TABLE message_recipients (
  org_id text NOT NULL,
  to_number text NOT NULL,
  message_id text NOT NULL
) PARTITION BY RANGE (message_id);

DO $$
DECLARE
  p record;
BEGIN
  FOR p IN SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'messages'::regclass AND NOT i.inhdetachpending
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF message_recipients %s', 'message_recipients_' || substr(p.name, length('messages_') + 1), p.bound);
  END LOOP;
END $$;

INSERT INTO message_recipients (org_id, to_number, message_id) SELECT org_id, to_number, id FROM messages;
CREATE INDEX message_recipients_by_number ON message_recipients (org_id, to_number, message_id DESC);
DROP INDEX messages_org_recipient;

-- Migration 031's function, making each month's recipients beside its messages and timelines.
CREATE OR REPLACE FUNCTION create_message_partitions(first timestamptz, months integer) RETURNS integer LANGUAGE plpgsql AS $$
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
      EXECUTE format('CREATE TABLE %I (LIKE message_recipients INCLUDING DEFAULTS)', 'message_recipients_' || suffix);
      EXECUTE format('ALTER TABLE message_recipients ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', 'message_recipients_' || suffix, lo, hi);
      made := made + 1;
    EXCEPTION WHEN invalid_object_definition THEN
      -- "would overlap partition": the month is (partly) in the first partition.
      NULL;
    END;
  END LOOP;
  RETURN made;
END $$;
