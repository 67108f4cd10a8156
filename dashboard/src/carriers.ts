import type { Carrier } from './server-types';

/** One line a network: `orange: +26132 +26137 (SIM: orange)`; SIM names comma-separated. */
export const formatCarriers = (carriers: Carrier[]): string => carriers.map((c) => `${c.name}: ${c.prefixes.join(' ')} (SIM: ${c.simNames.join(', ')})`).join('\n');

const LINE = /^\s*([^:\s]+)\s*:\s*([^()]*?)\s*\(\s*SIMs?\s*:\s*([^)]*)\)\s*$/i;

/**
 * The lines back into the table the server checks; a line that does not read says which. The
 * server still names a bad prefix or name (carriers[i].prefixes[j]).
 */
export function parseCarriers(text: string): Carrier[] {
  return text
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.trim() !== '')
    .map(([line, n]) => {
      const m = LINE.exec(line);
      if (!m) throw new Error(`line ${n}: write it as  name: +26132 +26137 (SIM: name1, name2)`);
      return {
        name: m[1]!.toLowerCase(),
        prefixes: m[2]!.split(/[\s,]+/).filter(Boolean),
        simNames: m[3]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    });
}
