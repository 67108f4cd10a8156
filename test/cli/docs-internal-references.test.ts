import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const docs = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

it("the docs name no internal issue of the project (a reader cannot open them; another project's issue is fine)", () => {
  const found = docs.flatMap((path) => [...readFileSync(new URL(path, root), 'utf8').matchAll(/(.{0,20})\bissues? #?\d+/gi)].filter((m) => !/app's $/.test(m[1]!)).map((m) => `${path}: ${m[0]}`));
  expect(found).toEqual([]);
});
