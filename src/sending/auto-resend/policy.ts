import { Type } from '@sinclair/typebox';
import { Int } from '../../schemas/schema-kit.js';

/** At most this many automatic resends of one message (the organizations table's CHECK, migration 026). */
export const MAX_AUTO_RESENDS = 5;

/**
 * Failures worth another try from another phone or SIM: the radio, the network or the phone
 * failed for now (no service, radio off, Android's limit, a modem or RIL hiccup). Not the ones
 * that would fail again wherever sent (invalid_*, short_code_*, fdn_check_failure, no_sim,
 * permission_denied) nor the final ones (expired, opted_out, device_revoked, cancelled).
 */
export const DEFAULT_RESEND_CODES: readonly string[] = [
  'generic_failure',
  'no_service',
  'radio_off',
  'null_pdu',
  'limit_exceeded',
  'network_error',
  'modem_error',
  'system_error',
  'no_resources',
  'internal_error',
  'no_memory',
];

/**
 * Codes no setting may list: a resend of these could only fail the same way, or send what the
 * organization said not to send (an opted-out recipient, a message past its expiry).
 */
const NEVER_RESENT: ReadonlySet<string> = new Set(['opted_out', 'expired', 'device_revoked']);

/** A phone a message failed on is skipped by the resend for this long; after it, any phone (the same one too) may take it. */
export const AVOID_FAILED_PHONE_MS = 60_000;

/** The attempts a send may ask for (`autoResend` of POST /v1/messages, the organization's `autoResend.attempts`). */
export const AutoResendAttempts = Int('integer', { minimum: 0, maximum: MAX_AUTO_RESENDS });

/** PATCH /dashboard/v1/organization `autoResend`: either part may be left out; `failureCodes: null` restores the shipped list. */
export const AutoResendSetting = Type.Object(
  {
    attempts: Type.Optional(AutoResendAttempts),
    failureCodes: Type.Optional(
      Type.Union(
        [
          Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', errorMessage: 'must be a failure code in lower_snake_case, at most 64 characters' }), {
            maxItems: 64,
            uniqueItems: true,
          }),
          Type.Null(),
        ],
        { errorMessage: 'must be a list of up to 64 distinct failure codes (lower_snake_case), or null for the default list' },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The first listed code that no setting may list (a resend could only fail the same way, or send what must not be sent). */
export function neverResentCode(codes: readonly string[] | null | undefined): string | undefined {
  return codes?.find((c) => NEVER_RESENT.has(c));
}
