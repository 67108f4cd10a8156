-- Automatic resend of retryable failures (issue 20; docs/decisions.md "Automatic resend").
-- The organization's setting: how many automatic resends a message gets (0: off), and which
-- failure codes are worth another try (NULL: the shipped list, DEFAULT_RESEND_CODES in
-- src/messages/auto-resend/policy.ts, so that a better default reaches every organization that
-- kept it).
ALTER TABLE organizations
  ADD COLUMN auto_resend_attempts smallint NOT NULL DEFAULT 0 CHECK (auto_resend_attempts BETWEEN 0 AND 5),
  ADD COLUMN auto_resend_codes text[];

-- Each message carries the automatic resends it may still have, fixed at its send: a chain is
-- bounded whatever the setting becomes later. Set to 0 once its failure was dealt with (resent,
-- not retryable, or refused), so the sweep's index holds only failures still to be dealt with.
-- auto_resend marks a message an automatic resend created (of resend_of_id).
ALTER TABLE messages
  ADD COLUMN auto_resends_left smallint NOT NULL DEFAULT 0,
  ADD COLUMN auto_resend boolean NOT NULL DEFAULT false;

-- At most one automatic resend of a message, whoever creates it (the report's path, the sweep,
-- two processes): the loser's insert fails and its transaction, daily count included, is undone.
-- Manual resends (POST /v1/messages/{id}/resend) are not limited by it.
CREATE UNIQUE INDEX messages_one_auto_resend ON messages (resend_of_id) WHERE auto_resend;

-- The sweep's work list: failures whose automatic resend is still to be decided.
CREATE INDEX messages_auto_resend_due ON messages (failed_at) WHERE status = 'failed' AND auto_resends_left > 0;
