import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cliClientSettings, settings } from '../../src/config/config.js';
import { withGeneratedTables } from '../../src/config/settings-doc.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const all = [...Object.values(settings), ...Object.values(cliClientSettings)];

describe('docs/configuration.md', () => {
  it('holds the settings tables as src/config/settings.ts writes them', () => {
    expect(doc === withGeneratedTables(doc), 'docs/configuration.md is stale: run `npm run config:docs`').toBe(true);
  });

  it('has a row, with the right default, for every setting', () => {
    for (const s of all) {
      expect(doc).toContain(`| \`${s.env}\` | ${s.kind.label} | ${s.default === '' ? '(empty)' : `\`${s.default}\``} |`);
    }
  });

  it('documents no setting that does not exist', () => {
    const known = new Set<string>(all.map((s) => s.env));
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
    expect(documented.filter((name) => !known.has(name))).toEqual([]);
  });

  it("README's short table gives each variable its real default", () => {
    const rows = [...readme.matchAll(/^\| (`[A-Z_]+`(?: \/ `[A-Z_]+`)*) \| ([^|]+) \|/gm)];
    expect(rows.length).toBeGreaterThan(5);
    for (const [, names, defaults] of rows) {
      const values = defaults!.trim().split(' / ');
      names!.split(' / ').forEach((name, i) => {
        const s = all.find((x) => `\`${x.env}\`` === name);
        expect(s, `README names ${name}, which is no setting`).toBeDefined();
        expect(values[i], `README's default of ${name}`).toBe(s!.default === '' ? '(empty)' : `\`${s!.default}\``);
      });
    }
  });

  it('names the markers it needs when they are missing', () => {
    expect(() => withGeneratedTables('# Configuration\n')).toThrow(/markers of settings missing/);
  });
});
