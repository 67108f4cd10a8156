-- The key each SMS Gateway for Android phone signs its webhooks with (X-Signature), handed to it
-- in GET /mobile/v1/settings. Kept in clear: verifying an HMAC needs the key itself, as signing
-- the organization's own webhooks needs theirs. One per phone, made on its first settings sync.
CREATE TABLE mobile_webhook_keys (
  device_id   text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  signing_key text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
