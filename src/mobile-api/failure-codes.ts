/**
 * A failure code from the app's error text (smsgate-mobile-protocol.md §5.4), free text the app
 * writes as `Send result: RESULT_ERROR_NO_SERVICE (...)`, `TTL expired`, `Can't send message:
 * SIM 2 not found`, a failed delivery report.
 */
export function failureCodeOf(reason: string | undefined): string {
  const text = reason?.trim() ?? '';
  const result = /RESULT_(?:ERROR_)?([A-Z0-9_]+)/.exec(text);
  if (result) return result[0].startsWith('RESULT_RIL_') ? `ril_${result[1]!.replace(/^RIL_/, '').toLowerCase()}` : result[1]!.toLowerCase();
  if (/^TTL expired/i.test(text)) return 'expired';
  if (/SIM \d+ not found|No SIMs found/i.test(text)) return 'no_sim';
  if (/^Delivery result/i.test(text)) return 'delivery_failed';
  return 'generic_failure';
}
