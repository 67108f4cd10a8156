import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Files of src/ that may run a statement outside a `sql/` folder, each with its reason. Every
 * other statement is one operation in `src/<domain>/sql/<operation>.ts`, one typed function each.
 */
const ALLOWED: Record<string, string> = {
  'src/db/migrate.ts': 'the migrations runner: runs the files of db/migrations under its lock and records them',
  'src/db/pool.ts': 'the generic transaction helpers (BEGIN, COMMIT, ROLLBACK) every domain uses',
  'src/launcher/postgres-server.ts': 'creates the database on a bare server, before any schema or pool exists',
  'src/app/runtime.ts': "the start-up check that both pools answer ('SELECT 1'), no operation on data",
  'src/health/readiness.ts': "the readiness probe ('SELECT 1'), no operation on data",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [relative(root, path).split('\\').join('/')] : [];
  });
}

const withQueries = sourceFiles(join(root, 'src')).filter((f) => !f.split('/').includes('sql') && /\.query\(/.test(readFileSync(join(root, f), 'utf8')));

it('every statement in src/ sits in a sql/ folder, one operation per file, unless its file is allowed with a reason', () => {
  expect(withQueries.filter((f) => !(f in ALLOWED))).toEqual([]);
});

it('the allow-list names only files that still run a statement outside sql/', () => {
  expect(Object.keys(ALLOWED).filter((f) => !withQueries.includes(f))).toEqual([]);
});
