import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { settings } from '../../src/config/config.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

/** The row docs/configuration.md should have for a setting (printed when it is missing). */
const row = (name: string, s: { default: string; doc: string }) => `| \`${name}\` | ${s.default === '' ? '(empty)' : `\`${s.default}\``} | ${s.doc.replaceAll('|', '\\|')} |`;

describe('docs/configuration.md', () => {
  it('has a row, with the right default, for every setting of src/config/config.ts', () => {
    const missing = Object.entries(settings)
      .map(([name, s]) => row(name, s))
      .filter((r) => !doc.includes(r));
    expect(missing, `update docs/configuration.md with:\n${missing.join('\n')}`).toEqual([]);
  });

  it('documents no setting that does not exist', () => {
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.filter((name) => !(name! in settings))).toEqual([]);
  });
});
