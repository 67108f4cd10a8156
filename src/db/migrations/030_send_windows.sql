-- Quiet hours (issue 21; docs/decisions.md "Send windows"). An organization's send windows, and
-- optionally a phone's own: {timeZone, ranges: [{days, from, to}]} (src/send-windows/windows.ts).
-- NULL: no windows, sending at any hour. A phone sends only while both its organization's
-- windows and its own are open.
ALTER TABLE organizations ADD COLUMN send_windows jsonb CHECK (send_windows IS NULL OR jsonb_typeof(send_windows) = 'object');
ALTER TABLE devices ADD COLUMN send_windows jsonb CHECK (send_windows IS NULL OR jsonb_typeof(send_windows) = 'object');

-- A send that ignores the windows (one-time codes): kept on the message so that a dispatch queue
-- rebuilt from Postgres still lets it through at night.
ALTER TABLE messages ADD COLUMN ignore_send_windows boolean NOT NULL DEFAULT false;
