-- Hafatra's first schema: every durable record. Ids are prefixed, time-sortable text
-- (src/ids/ids.ts), so "newest first" is ORDER BY id DESC and cursors are ids.

CREATE TABLE organizations (
  id              text PRIMARY KEY,
  name            text NOT NULL UNIQUE,
  default_country char(2) NOT NULL DEFAULT 'MG',
  daily_limit     integer NOT NULL DEFAULT 1000 CHECK (daily_limit BETWEEN 1 AND 100000),
  retention_days  integer NOT NULL DEFAULT 30 CHECK (retention_days BETWEEN 1 AND 3650),
  ai_consent      boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id              text PRIMARY KEY,
  org_id          text NOT NULL REFERENCES organizations(id),
  name            text NOT NULL,
  hint            text NOT NULL,          -- first characters of the key, to recognise it in lists
  secret_hash     bytea NOT NULL UNIQUE,  -- SHA-256 of the whole key; the key itself is never stored
  scopes          text[] NOT NULL,
  rate_per_second integer,                -- null: the configured default
  rate_burst      integer,
  expires_at      timestamptz,
  revoked_at      timestamptz,
  replaced_by     text REFERENCES api_keys(id),
  last_used_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_org ON api_keys (org_id, id);

CREATE TABLE devices (
  id                          text PRIMARY KEY,
  org_id                      text NOT NULL REFERENCES organizations(id),
  name                        text NOT NULL,
  model                       text,
  token_hash                  bytea UNIQUE,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  updated_at                  timestamptz NOT NULL DEFAULT now(),
  revoked_at                  timestamptz,
  revoked_reason              text,
  last_seen_at                timestamptz,
  battery_percent             integer,
  battery_charging            boolean,
  network_type                text,
  uptime_seconds              bigint,
  free_storage_bytes          bigint,
  app_version                 text,
  outbound_enabled            boolean NOT NULL DEFAULT true,
  draining                    boolean NOT NULL DEFAULT false,
  default_sim_subscription_id integer,
  socket_connected            boolean NOT NULL DEFAULT false,
  socket_changed_at           timestamptz,
  default_sms_app             boolean,
  default_sms_app_reported_at timestamptz,
  pacing_per_minute           integer,      -- null: the configured default
  sim_daily_cap               integer       -- null: no daily cap per SIM
);
CREATE INDEX devices_org ON devices (org_id, id);

CREATE TABLE device_sims (
  device_id       text NOT NULL REFERENCES devices(id),
  subscription_id integer NOT NULL,
  slot_index      integer,
  carrier_name    text,
  display_name    text,
  phone_number    text,
  country_iso     text,
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at    timestamptz NOT NULL DEFAULT now(),
  removed_at      timestamptz,
  PRIMARY KEY (device_id, subscription_id)
);

CREATE TABLE pairing_codes (
  code_hash  bytea PRIMARY KEY,
  org_id     text NOT NULL REFERENCES organizations(id),
  name       text,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  device_id  text REFERENCES devices(id),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per send request; the idempotency key makes a retried request find its batch even
-- after Redis lost its copy.
CREATE TABLE batches (
  id              text PRIMARY KEY,
  org_id          text NOT NULL REFERENCES organizations(id),
  idempotency_key text,
  request_hash    text NOT NULL,
  message_count   integer NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX batches_idempotency ON batches (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE messages (
  id                  text PRIMARY KEY,
  org_id              text NOT NULL REFERENCES organizations(id),
  to_number           text NOT NULL,
  body                text NOT NULL,
  status              text NOT NULL,
  segments            integer NOT NULL,
  encoding            text NOT NULL,
  device_id           text,
  requested_device_id text,
  sim_subscription_id integer,
  batch_id            text,
  resend_of_id        text,
  failure_code        text,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  claimed_at          timestamptz,
  sent_at             timestamptz,
  delivered_at        timestamptz,
  failed_at           timestamptz,
  expires_at          timestamptz NOT NULL
);
CREATE INDEX messages_org ON messages (org_id, id DESC);
CREATE INDEX messages_org_status ON messages (org_id, status, id DESC);
-- Work lists of the reconciler and the sweeps stay small: only live statuses are indexed.
CREATE INDEX messages_accepted ON messages (created_at) WHERE status = 'accepted';
CREATE INDEX messages_queued ON messages (org_id, expires_at) WHERE status = 'queued';
CREATE INDEX messages_in_flight ON messages (device_id, updated_at) WHERE status IN ('claimed', 'sending');
CREATE INDEX messages_daily ON messages (org_id, created_at);

CREATE TABLE message_events (
  id          bigserial PRIMARY KEY,
  message_id  text NOT NULL,
  from_status text,
  to_status   text NOT NULL,
  source      text NOT NULL,
  code        text,
  device_id   text,
  at          timestamptz NOT NULL
);
CREATE INDEX message_events_message ON message_events (message_id, id);

CREATE TABLE incoming_messages (
  id                   text PRIMARY KEY,
  org_id               text NOT NULL REFERENCES organizations(id),
  device_id            text NOT NULL REFERENCES devices(id),
  client_id            text NOT NULL,
  from_number          text NOT NULL,
  body                 text,
  sim_subscription_id  integer,
  received_at          timestamptz NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  retention_expires_at timestamptz NOT NULL,
  body_purged_at       timestamptz,
  UNIQUE (device_id, client_id)
);
CREATE INDEX incoming_org ON incoming_messages (org_id, id DESC);
CREATE INDEX incoming_org_device ON incoming_messages (org_id, device_id, id DESC);
CREATE INDEX incoming_retention ON incoming_messages (retention_expires_at) WHERE body_purged_at IS NULL;

-- Parts of a concatenated SMS wait here until all have arrived, then become one incoming message.
CREATE TABLE incoming_parts (
  device_id   text NOT NULL REFERENCES devices(id),
  group_key   text NOT NULL,
  part_index  integer NOT NULL,
  part_count  integer NOT NULL,
  client_id   text NOT NULL,
  from_number text NOT NULL,
  body        text NOT NULL,
  sim_subscription_id integer,
  received_at timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, group_key, part_index)
);

CREATE TABLE mobile_money_events (
  id                        text PRIMARY KEY,
  org_id                    text NOT NULL REFERENCES organizations(id),
  incoming_message_id       text NOT NULL UNIQUE REFERENCES incoming_messages(id),
  provider                  text NOT NULL,
  classification            text NOT NULL,
  parsing_status            text NOT NULL,
  direction                 text,
  amount_minor              bigint,
  currency                  text,
  reference                 text,
  counterparty_name         text,
  counterparty_phone_masked text,
  provider_timestamp        text,
  balance_minor             bigint,
  fees_minor                bigint,
  parser_version            text NOT NULL,
  parser_confidence         double precision,
  ai_status                 text NOT NULL DEFAULT 'not_needed',
  ai_provider               text,
  ai_model                  text,
  ai_confidence             double precision,
  review_status             text NOT NULL DEFAULT 'none',
  review_note               text,
  reviewed_at               timestamptz,
  created_at                timestamptz NOT NULL DEFAULT now(),
  updated_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mobile_money_org ON mobile_money_events (org_id, id DESC);
CREATE INDEX mobile_money_org_class ON mobile_money_events (org_id, classification, id DESC);
CREATE INDEX mobile_money_reference ON mobile_money_events (org_id, provider, reference) WHERE reference IS NOT NULL;

CREATE TABLE webhook_endpoints (
  id                         text PRIMARY KEY,
  org_id                     text NOT NULL REFERENCES organizations(id),
  url                        text NOT NULL,
  description                text,
  event_types                text[] NOT NULL,
  enabled                    boolean NOT NULL DEFAULT true,
  disabled_at                timestamptz,
  disabled_reason            text,
  consecutive_failures       integer NOT NULL DEFAULT 0,
  failing_since              timestamptz,
  last_success_at            timestamptz,
  last_failure_at            timestamptz,
  -- Signing needs the secret itself, so it is kept (unlike keys and tokens, which are hashed).
  secret                     text NOT NULL,
  previous_secret            text,
  previous_secret_expires_at timestamptz,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  updated_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (org_id, id);

-- The event outbox: written in the same transaction as the change it reports.
CREATE TABLE events (
  id            text PRIMARY KEY,
  org_id        text NOT NULL REFERENCES organizations(id),
  type          text NOT NULL,
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX events_undispatched ON events (id) WHERE dispatched_at IS NULL;

CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id         text NOT NULL REFERENCES events(id),
  event_type       text NOT NULL,
  status           text NOT NULL DEFAULT 'pending',
  attempts         integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error       text,
  last_attempt_at  timestamptz,
  next_attempt_at  timestamptz,
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying');
