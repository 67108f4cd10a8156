-- An organization's mobile networks: [{name, prefixes, simNames}], which recipients (by E.164
-- prefix) and which SIMs (by the carrierName their heartbeat reports) are on each, so a claim
-- sends on-net when it can (src/orgs/carriers.ts). NULL: never set, the shipped default
-- (Madagascar's networks) applies; [] turns carrier routing off.
ALTER TABLE organizations ADD COLUMN carriers jsonb CHECK (carriers IS NULL OR jsonb_typeof(carriers) = 'array');
