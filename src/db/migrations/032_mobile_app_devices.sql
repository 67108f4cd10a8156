-- Phones running SMS Gateway for Android pair through the mobile API (/mobile/v1, src/mobile-api/)
-- and become ordinary devices, told apart by the door they came in through: 'device' (our own
-- protocol, /device/v1) or 'mobile'. A mobile phone sends as soon as it pulls, so a job it holds
-- moves to another phone only once it confirms `Cancelled`; only app versions from 1.67.0 can
-- (confirms_cancellation, from the User-Agent at registration and at every service start).
ALTER TABLE devices ADD COLUMN protocol text NOT NULL DEFAULT 'device';
ALTER TABLE devices ADD COLUMN confirms_cancellation boolean NOT NULL DEFAULT false;

-- Jobs of mobile phones the server asked to give back (claim timeout, silent phone, Android's
-- limit): listed as `Cancelling` on the phone's pulls and announced by MessageCancelled until the
-- phone reports them. A request holds the claim it was made for (the message's claimed_at): one
-- made for an earlier claim of the same message (it came back to the phone since) counts for
-- nothing.
CREATE TABLE mobile_cancellations (
  message_id   text PRIMARY KEY,
  device_id    text NOT NULL,
  claimed_at   timestamptz NOT NULL,
  reason       text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mobile_cancellations_device ON mobile_cancellations (device_id);
