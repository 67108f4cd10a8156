-- Members: the people who run an organization from the dashboard (docs/dashboard-api.md).
-- Passwords, session tokens and one-time link tokens are stored only as hashes.

CREATE TABLE members (
  id                  text PRIMARY KEY,
  email               text NOT NULL UNIQUE,   -- lower-cased, trimmed
  password_hash       text,                   -- scrypt (src/members/password.ts); null until set
  password_changed_at timestamptz,
  last_sign_in_at     timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  org_id     text NOT NULL REFERENCES organizations(id),
  member_id  text NOT NULL REFERENCES members(id),
  role       text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, member_id)
);
CREATE INDEX memberships_member ON memberships (member_id);

-- One row per signed-in browser. Every request reads its row (by the token's hash), so ending
-- a session here ends it on every API process at once.
CREATE TABLE member_sessions (
  token_hash   bytea PRIMARY KEY,
  id           text NOT NULL UNIQUE,
  member_id    text NOT NULL REFERENCES members(id),
  org_id       text NOT NULL REFERENCES organizations(id),  -- the organization it acts in
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,                        -- the absolute limit
  ended_at     timestamptz,
  ended_reason text,
  address      text,
  user_agent   text
);
CREATE INDEX member_sessions_live ON member_sessions (member_id) WHERE ended_at IS NULL;

CREATE TABLE one_time_links (
  token_hash bytea PRIMARY KEY,
  id         text NOT NULL UNIQUE,
  kind       text NOT NULL CHECK (kind IN ('setup', 'invitation', 'reset')),
  org_id     text REFERENCES organizations(id),
  email      text,
  role       text CHECK (role IN ('owner', 'admin', 'viewer')),
  member_id  text REFERENCES members(id),   -- reset: whose password
  created_by text REFERENCES members(id),   -- null: the CLI or the first start
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  revoked_at timestamptz
);
CREATE INDEX one_time_links_open ON one_time_links (org_id, kind, id) WHERE used_at IS NULL AND revoked_at IS NULL;

-- Who did what, when, from where. member_email is copied so that an entry still says who after
-- the member is gone.
CREATE TABLE audit_log (
  id           text PRIMARY KEY,
  org_id       text NOT NULL,
  member_id    text,
  member_email text,
  action       text NOT NULL,
  target       text,
  address      text,
  detail       jsonb NOT NULL DEFAULT '{}',
  at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_org ON audit_log (org_id, id DESC);
