/** The API's field names as words for a person (errors name fields by their path: `carriers[1].prefixes[0]`). */

/** `defaultCountry` → "Default country". */
export const humanField = (name: string) => {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words === 'url' ? 'URL' : words.charAt(0).toUpperCase() + words.slice(1);
};

const singular = (w: string) => (/(x|ss|ch|sh)es$/.test(w) ? w.slice(0, -2) : w.endsWith('s') ? w.slice(0, -1) : w);

/**
 * The parts of a path as words, counted from 1: `prefixes[0]` → "prefix 1", `.timeZone` → "time
 * zone"; `carriers[1].prefixes[0]` → "Carrier 2, prefix 1". Empty for an empty path.
 */
export function pathWords(path: string): string {
  const steps = [...path.matchAll(/\.?([A-Za-z][A-Za-z0-9]*)(?:\[(\d+)\])?|\[(\d+)\]/g)].map(([, word, i, bare]) => {
    if (bare !== undefined) return `item ${Number(bare) + 1}`;
    const w = humanField(word!).toLowerCase();
    return i === undefined ? w : `${singular(w)} ${Number(i) + 1}`;
  });
  const words = steps.join(', ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `name[1].prefixes[0]: text` split: the root field, the rest of its path, the text. Null when the message names no field. */
export function namedField(message: string): { root: string; rest: string; text: string } | null {
  const m = /^([A-Za-z][A-Za-z0-9]*)((?:\[\d+\]|\.[A-Za-z0-9]+)*): ([\s\S]+)$/.exec(message);
  return m ? { root: m[1]!, rest: m[2]!, text: m[3]! } : null;
}
