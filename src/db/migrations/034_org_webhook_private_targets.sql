-- Which private or loopback webhook targets an organization may deliver to (docs/webhooks.md,
-- "Private targets and local development"): host names, IP addresses and CIDR ranges its owner
-- allowed, none by default; and whether plain http may reach the LAN ones (loopback ones never
-- leave the machine and need no TLS). Read at endpoint creation and before every delivery, so a
-- change applies at once, without a restart.
ALTER TABLE organizations
  ADD COLUMN webhook_private_targets text[] NOT NULL DEFAULT '{}',
  ADD COLUMN webhook_plain_http boolean NOT NULL DEFAULT false;
