/**
 * A failed message's `failureCode`, read from the error text the app reports with it
 * (smsgate-mobile-protocol.md §5.4). The codes are those of native phones (docs/device-protocol.md,
 * "Failure codes"), so the automatic resend, the cool-down and webhooks treat both alike. The
 * table is docs/device-protocol.md's "SMS Gateway for Android" section; texts are free text, so
 * each rule matches loosely and anything unknown is `generic_failure`.
 */
const RULES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/\bTTL expired\b/i, () => 'expired'],
  // `Send result: RESULT_RIL_SIM_ABSENT (…)` → ril_sim_absent
  [/\bSend result:\s*RESULT_RIL_([A-Z0-9_]+)/, (m) => `ril_${m[1]!.toLowerCase()}`],
  // `Send result: RESULT_ERROR_NO_SERVICE (…)` → no_service; `RESULT_NETWORK_REJECT` → network_reject
  [/\bSend result:\s*RESULT_(?:ERROR_)?([A-Z0-9_]+)/, (m) => m[1]!.toLowerCase()],
  [/\bSIM \d+ not found\b|\bNo SIMs found\b/i, () => 'no_sim'],
  [/\bREAD_PHONE_STATE\b|\bSecurityException\b|\bpermission\b/i, () => 'permission_denied'],
  // A failed delivery report (`Delivery result from SC …: …`), or a failed delivery callback.
  [/\bDelivery result\b/i, () => 'delivery_failed'],
];

export function failureCodeOf(error: string | null | undefined): string {
  if (error) {
    for (const [pattern, code] of RULES) {
      const m = pattern.exec(error);
      if (m) return code(m).slice(0, 64);
    }
  }
  return 'generic_failure';
}
