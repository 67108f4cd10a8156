-- Received SMS and their mobile-money reading.

-- Set when mobile-money reading of a message concluded (with or without a record). The
-- recovery pass of the parse worker reads this partial index: messages whose parse job was lost
-- (Redis flushed, process died before enqueueing) are found here and read again.
ALTER TABLE incoming_messages ADD COLUMN money_checked_at timestamptz;
CREATE INDEX incoming_money_unchecked ON incoming_messages (id)
  WHERE money_checked_at IS NULL AND body IS NOT NULL;

-- The phone's ids of the parts of a joined SMS: a part the phone sends again after the join
-- answers with the joined message instead of waiting for siblings that will never come again.
CREATE TABLE incoming_part_clients (
  device_id   text NOT NULL REFERENCES devices(id),
  client_id   text NOT NULL,
  incoming_id text NOT NULL REFERENCES incoming_messages(id),
  PRIMARY KEY (device_id, client_id)
);

-- Parts waiting for siblings are found by the phone's id too (a re-sent part), and swept with
-- the organization's retention period when their siblings never arrive.
CREATE UNIQUE INDEX incoming_parts_client ON incoming_parts (device_id, client_id);
CREATE INDEX incoming_parts_age ON incoming_parts (created_at);

