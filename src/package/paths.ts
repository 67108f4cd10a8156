import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';

/** The package root, whether running from src (tsx, vitest) or from dist/src (built). */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const packageRoot = findRoot(dirname(fileURLToPath(import.meta.url)));
export const luaDir = join(packageRoot, 'lua');
export const migrationsDir = join(packageRoot, 'src', 'db', 'migrations');
