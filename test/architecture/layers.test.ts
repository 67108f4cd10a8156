import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, BEGIN, END, layersDiagram, withDiagram } from './diagram.js';
import { type FileImport, type LayerRules, readImports, readRules, ROOT, ROOT_GROUP, violations } from './layers.js';

describe('the layers of src/ (docs/layers.json)', () => {
  const imports = readImports();
  const rules = readRules();

  it('hold: no import runs up a layer unless listed with its reason, no large circle of folders, few pairs importing each other', () => {
    const problems = violations(imports, rules);
    expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
  });

  it('name only folders that exist', () => {
    const listed = rules.layers.flatMap((layer) => layer.folders).filter((folder) => folder !== ROOT_GROUP);
    expect(listed.filter((folder) => !existsSync(join(ROOT, 'src', folder)))).toEqual([]);
  });

  it('are drawn in docs/architecture.md as they are (npm run layers:diagram redraws them)', () => {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    expect(doc.includes(BEGIN) && doc.includes(END), 'docs/architecture.md lost its layers markers').toBe(true);
    expect(doc === withDiagram(doc, layersDiagram(imports, rules)), 'docs/architecture.md: the layers diagram is out of date; run `npm run layers:diagram`').toBe(true);
  });

  it('docs/architecture.md cites only src/ files and folders that exist', () => {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    const cited = [...doc.matchAll(/\bsrc\/[A-Za-z0-9_./-]*/g)].map((m) => m[0].replace(/[.]+$/, '')).filter((path) => !path.endsWith('/*'));
    expect(cited.length).toBeGreaterThan(40);
    expect(cited.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});

describe('the layers check', () => {
  const rules = (over: Partial<LayerRules> = {}): LayerRules => ({
    layers: [
      { name: 'top', why: '', folders: ['app'] },
      { name: 'middle', why: '', folders: ['sending', 'devices'] },
      { name: 'bottom', why: '', folders: ['messages', 'src/*.ts'] },
    ],
    exceptions: [],
    limits: { exceptions: 2, largestGroup: 2, mutualPairs: 1 },
    ...over,
  });
  const imp = (from: string, to: string): FileImport => ({ from, to });
  const downward = [imp('src/app/main.ts', 'src/sending/send.ts'), imp('src/sending/send.ts', 'src/messages/message.ts'), imp('src/sending/send.ts', 'src/devices/eligibility.ts')];

  it('passes imports that go down or stay within a layer', () => {
    expect(violations(downward, rules())).toEqual([]);
  });

  it('names the file and the import that runs up a layer', () => {
    const problems = violations([...downward, imp('src/messages/message.ts', 'src/sending/send.ts')], rules());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('src/messages/message.ts imports src/sending/send.ts');
    expect(problems[0]).toContain('"messages" (layer bottom) may not import "sending" (layer middle');
  });

  it('lets an upward import listed with its reason through, and refuses an exception without one, one unused, or too many', () => {
    const up = imp('src/messages/message.ts', 'src/sending/send.ts');
    const listed = { from: up.from, to: up.to, reason: 'the record names its writer' };
    expect(violations([...downward, up], rules({ exceptions: [listed] }))).toEqual([]);
    expect(violations([...downward, up], rules({ exceptions: [{ ...listed, reason: ' ' }] }))).toEqual([expect.stringContaining('gives no reason')]);
    expect(violations(downward, rules({ exceptions: [listed] }))).toEqual([expect.stringContaining('no longer runs up a layer')]);
    const many = violations([...downward, up], rules({ exceptions: [listed, listed, listed] }));
    expect(many[0]).toBe('3 exceptions are listed, at most 2 are allowed: move code instead');
  });

  it('counts the folders that all reach one another, and the pairs importing each other', () => {
    const circle = [imp('src/sending/a.ts', 'src/devices/b.ts'), imp('src/devices/b.ts', 'src/sending/c.ts'), imp('src/app/a.ts', 'src/sending/a.ts')];
    expect(violations(circle, rules())).toEqual([]);
    const wider = [...circle, imp('src/devices/b.ts', 'src/app/x.ts'), imp('src/app/a.ts', 'src/devices/b.ts')];
    const exceptions = [{ from: 'src/devices/b.ts', to: 'src/app/x.ts', reason: 'test' }];
    const problems = violations(wider, rules({ exceptions }));
    expect(problems[0]).toBe('3 folders all reach one another (at most 2): app, devices, sending');
    expect(problems[1]).toContain('2 pairs of folders import each other (at most 1):');
    expect(problems[1]).toContain('app<->devices (src/app/a.ts imports src/devices/b.ts; src/devices/b.ts imports src/app/x.ts)');
    expect(problems[1]).toContain('devices<->sending (src/devices/b.ts imports src/sending/c.ts');
  });

  it('asks for a layer for a folder the rules do not know', () => {
    expect(violations([...downward, imp('src/app/main.ts', 'src/billing/invoice.ts')], rules())).toEqual([
      'src folder "billing" is in no layer of docs/layers.json: add it to the layer it belongs to',
    ]);
  });

  describe('reads imports', () => {
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    it('of every kind, type imports included, files directly in src/ as the group src/*.ts', () => {
      write('src/index.ts', "export { send } from './sending/send.js';\n");
      write('src/version.ts', 'export const v = 1;\n');
      write(
        'src/sending/send.ts',
        "import type {\n  Message,\n} from '../messages/message.js';\nimport { v } from '../version.js';\nimport 'node:fs';\nexport const send = async () => (await import('../devices/index.js')).x;\n",
      );
      write('src/messages/message.ts', "import type { Message as M } from './sql/row.js';\nexport type Message = M;\n");
      write('src/messages/sql/row.ts', 'export type Message = { id: string };\n');
      write('src/devices/index.ts', 'export const x = 1;\n');
      const found = readImports(root);
      expect(found.sort((a, b) => (a.from + a.to).localeCompare(b.from + b.to))).toEqual([
        imp('src/index.ts', 'src/sending/send.ts'),
        imp('src/messages/message.ts', 'src/messages/sql/row.ts'),
        imp('src/sending/send.ts', 'src/devices/index.ts'),
        imp('src/sending/send.ts', 'src/messages/message.ts'),
        imp('src/sending/send.ts', 'src/version.ts'),
      ]);
      expect(violations(found, rules())).toEqual([
        'src/index.ts imports src/sending/send.ts: "src/*.ts" (layer bottom) may not import "sending" (layer middle, above it); move the code down, or list the import in docs/layers.json\'s exceptions with its reason',
      ]);
    });
  });
});
