/**
 * How an SMS body travels: GSM 03.38 (7-bit, with its extension table costing two septets per
 * character) when every character fits, else UCS-2. Long bodies are split into concatenated
 * segments whose user-data header leaves 153 septets or 67 UTF-16 units each; an escape pair or
 * a surrogate pair is never split across two segments.
 */
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';

const septetCost = new Map<string, number>();
for (const ch of GSM_BASIC) septetCost.set(ch, 1);
for (const ch of GSM_EXTENSION) septetCost.set(ch, 2);

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SmsMeasure {
  encoding: SmsEncoding;
  segments: number;
}

function countSegments(units: number[], single: number, multi: number): number {
  const total = units.reduce((a, b) => a + b, 0);
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const cost of units) {
    if (used + cost > multi) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  return segments;
}

export function measureSms(body: string): SmsMeasure {
  const chars = [...body];
  const septets: number[] = [];
  for (const ch of chars) {
    const cost = septetCost.get(ch);
    if (cost === undefined) {
      return {
        encoding: 'ucs2',
        segments: countSegments(
          chars.map((c) => c.length),
          70,
          67,
        ),
      };
    }
    septets.push(cost);
  }
  return { encoding: 'gsm7', segments: countSegments(septets, 160, 153) };
}
