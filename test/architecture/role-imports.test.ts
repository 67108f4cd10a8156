import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './layers.js';

/** What `file` imports at load time, as written: no `import type`, no `import()`. */
function loadTimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const specs: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typesOnly = clause?.isTypeOnly || (clause && !clause.name && bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly));
      if (!typesOnly) specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specs;
}

/** The files under src/ that `file` imports at load time. */
function loadTimeImports(file: string): string[] {
  return loadTimeSpecifiers(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => posix.join(posix.dirname(file), s).replace(/\.js$/, '.ts'));
}

function loadedWith(entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of loadTimeImports(file)) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

// Every process starts from the CLI's entry; a role's own code is imported when the role starts
// (src/cli/processes.ts). The workers' code held 16 MB of an idle API's memory (bench/README.md).
describe('what a process loads before it knows its role', () => {
  const loaded = loadedWith('src/cli/main.ts');

  it("holds neither the workers' code nor the API server's", () => {
    expect(loaded.has('src/cli/processes.ts')).toBe(true);
    for (const roleOnly of ['src/app/workers.ts', 'src/webhooks/delivery/connection-pools.ts', 'src/app/api-server.ts', 'src/app/api-extensions.ts']) {
      expect(loaded, roleOnly).not.toContain(roleOnly);
    }
  });

  it('an API process loads no BullMQ until it queues a job', () => {
    const api = new Set([...loaded, ...loadedWith('src/app/api-server.ts'), ...loadedWith('src/app/api-extensions.ts')]);
    const importers = [...api].filter((file) => loadTimeSpecifiers(file).includes('bullmq'));
    expect(importers).toEqual([]);
  });

  // libphonenumber-js holds its metadata once per entry point imported: its default one beside
  // /max cost a process 0.7 MB of heap and 2.6 MB of RSS more.
  it('one copy of the phone number metadata: every import is of libphonenumber-js/max', () => {
    const everyFile = new Set([...loaded, ...loadedWith('src/app/api-server.ts'), ...loadedWith('src/app/api-extensions.ts'), ...loadedWith('src/app/workers.ts')]);
    const others = [...everyFile].filter((file) => loadTimeSpecifiers(file).some((s) => s.startsWith('libphonenumber-js') && s !== 'libphonenumber-js/max'));
    expect(others).toEqual([]);
  });
});
