import { maskPhone } from './phone.js';

export interface Party {
  name: string | null;
  phoneMasked: string | null;
}

const PHONE_LAST = /^(.*?)[ (]*(\+?\d[\d ]{6,16}\d)\)?$/;
const PHONE_FIRST = /^\(?(\+?\d[\d ]{6,16}\d)\)?(?: (.+))?$/;
const COMPACT_PHONE_LAST = /^(.*?)[ (]*(\+?\d{8,13})\)?$/;

/**
 * Splits "Narindra Franco Danhy (0383989016)", "RAKOTO 0340000003", "336868624" or
 * "SCORE ANALAKELY" into a name and a masked phone. The full number never leaves here.
 */
export function splitParty(raw: string | undefined): Party {
  const party = raw?.trim().replace(/[\s:,(]+$/, '');
  if (!party) return { name: null, phoneMasked: null };
  for (const [pattern, phoneGroup, nameGroup] of SHAPES) {
    const match = pattern.exec(party);
    const phoneMasked = match?.[phoneGroup] ? maskPhone(match[phoneGroup]) : null;
    if (match && phoneMasked) return { name: cleanName(match[nameGroup]), phoneMasked };
  }
  return { name: cleanName(party), phoneMasked: null };
}

const SHAPES: ReadonlyArray<[RegExp, number, number]> = [
  [PHONE_LAST, 2, 1],
  [COMPACT_PHONE_LAST, 2, 1],
  [PHONE_FIRST, 1, 2],
];

export function cleanName(raw: string | undefined): string | null {
  const name = raw?.replace(/^[\s(:]+|[\s(:,]+$/g, '').replace(/^(?:le|du|de) /i, '');
  if (!name || /^\d[\d ]*$/.test(name)) return null;
  return name;
}
