-- A status change records the status it left in the same UPDATE (src/messages/transitions.ts):
-- Postgres 17 cannot return a row's old values, and reading them first under FOR UPDATE cost a
-- row lock (a heap write and a WAL record) per message on every change.
ALTER TABLE messages ADD COLUMN previous_status text;
