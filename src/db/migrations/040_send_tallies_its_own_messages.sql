-- A send's statement (src/messages/sql/insert-messages.ts) writes the tally delta of the
-- messages it creates itself: one row per status (queued or accepted, and failed for opted-out
-- numbers), counted before the statement is sent. The statement trigger of migration 022 made
-- Postgres keep every inserted row in a transition table only to count them again: 2.5 of 19 µs
-- of Postgres's CPU per message in 500-message inserts (bench/README.md). That statement is the
-- only one that inserts messages; status changes and deletes keep their triggers.
DROP TRIGGER messages_tally_insert ON messages;
DROP FUNCTION tally_inserted_messages();
