-- A phone may open a new socket (on any API process) before its old one is seen closing. Each
-- open bumps the generation; a close only marks the phone disconnected when no newer socket
-- opened since, so a late close cannot hide a live connection.
ALTER TABLE devices ADD COLUMN socket_generation bigint NOT NULL DEFAULT 0;

-- Failed pairing attempts per minute, server-wide: pairing codes are short enough to type, so
-- guessing is capped (a failed guess does not say which organization's code it aimed at).
CREATE TABLE pairing_failures (
  minute   timestamptz PRIMARY KEY,
  failures integer NOT NULL
);

CREATE INDEX pairing_codes_expiry ON pairing_codes (expires_at);
