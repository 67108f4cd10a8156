-- Opt-outs (issue 21; docs/decisions.md "Opt-outs"). The numbers (E.164) an organization may not
-- send to: a received SMS that is a stop word adds its sender, a start word removes it, and the
-- API, the dashboard and the CLI manage the list. A send to one of them creates that recipient's
-- message `failed` with failureCode `opted_out` (src/opt-outs/split-opted-out.ts).
CREATE TABLE opt_outs (
  id                  text PRIMARY KEY,
  org_id              text NOT NULL REFERENCES organizations(id),
  number              text NOT NULL,
  -- sms: a stop word from the number (incoming_message_id names the SMS); api: an API key;
  -- member: a member in the dashboard or the CLI (an operator on the server).
  source              text NOT NULL CHECK (source IN ('sms', 'api', 'member')),
  incoming_message_id text,
  reason              text CHECK (char_length(reason) <= 200),
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, number)
);
-- The list, newest first (ids are time-sortable).
CREATE INDEX opt_outs_by_org ON opt_outs (org_id, id);

-- Every addition and removal, with what caused it, kept after a START removed the entry: "both are
-- recorded with the SMS that caused them". One SMS causes at most one change, so a phone that
-- sends an SMS again (it was not acknowledged) cannot record it twice.
CREATE TABLE opt_out_changes (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id              text NOT NULL REFERENCES organizations(id),
  number              text NOT NULL,
  action              text NOT NULL CHECK (action IN ('added', 'removed')),
  source              text NOT NULL CHECK (source IN ('sms', 'api', 'member')),
  incoming_message_id text UNIQUE,
  at                  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX opt_out_changes_by_number ON opt_out_changes (org_id, number, id);

-- The organization's own stop and start words (NULL: the shipped lists, src/opt-outs/keywords.ts)
-- and the reply its phones send to a number that opted out or back in (NULL: no reply).
ALTER TABLE organizations
  ADD COLUMN opt_out_stop_words text[],
  ADD COLUMN opt_out_start_words text[],
  ADD COLUMN opt_out_reply text CHECK (char_length(opt_out_reply) BETWEEN 1 AND 480),
  ADD COLUMN opt_in_reply text CHECK (char_length(opt_in_reply) BETWEEN 1 AND 480);
