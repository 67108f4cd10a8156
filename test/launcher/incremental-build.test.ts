import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const build = () => run(process.execPath, ['scripts/build.mjs'], { cwd: new URL('../../', import.meta.url).pathname, timeout: 240_000 });

it('npm run build on an unchanged checkout builds nothing: neither tsc nor vite runs', async () => {
  await build(); // whatever an earlier change left to build
  const started = Date.now();
  const again = await build();
  expect(again.stderr).toContain('build: server unchanged, not rebuilt');
  expect(again.stderr).toContain('build: dashboard unchanged, not rebuilt');
  // tsc alone takes seconds even with nothing to do; this is file dates only.
  expect(Date.now() - started).toBeLessThan(5_000);
}, 300_000);
