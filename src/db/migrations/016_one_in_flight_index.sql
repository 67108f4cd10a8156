-- Claimed and sending messages had two partial indexes, (device_id, updated_at) and (updated_at),
-- each written by both of those status changes: four of the sixteen index inserts of a delivered
-- message. The device index stays (queue depths, revocation); the silence sweep, every few
-- seconds, reads it whole, which is as many entries as messages in phones' hands.
DROP INDEX messages_in_flight_age;
