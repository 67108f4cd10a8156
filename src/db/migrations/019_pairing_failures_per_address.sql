-- Failed pairing attempts were capped server-wide only (30 a minute): anyone could keep every
-- phone of every organization from pairing by sending wrong codes. They are now counted per
-- client address too (src/devices/pairing.ts): one address gets a few tries a minute, and the
-- server-wide cap, much higher, still bounds a guesser spread over many addresses.
ALTER TABLE pairing_failures ADD COLUMN address text NOT NULL DEFAULT '';
ALTER TABLE pairing_failures DROP CONSTRAINT pairing_failures_pkey;
ALTER TABLE pairing_failures ADD PRIMARY KEY (minute, address);
