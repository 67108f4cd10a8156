-- A send may ask for priority "high" (one-time codes): 1, else 0. Kept on the message so that a
-- dispatch queue rebuilt from Postgres orders it as the send did.
ALTER TABLE messages ADD COLUMN priority smallint NOT NULL DEFAULT 0;
