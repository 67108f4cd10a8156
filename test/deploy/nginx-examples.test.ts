import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NGINX_EXAMPLES, renderNginxConfig, renderNginxExample } from '../support/nginx-config.js';
import { NGINX_BINARY } from '../support/nginx.js';

const ROOT = new URL('../../', import.meta.url);

describe('the nginx configurations shipped in docs/deploy/', () => {
  for (const example of NGINX_EXAMPLES) {
    it(`${example.file} is what test/support/nginx-config.ts renders`, async () => {
      const shipped = await readFile(new URL(example.file, ROOT), 'utf8');
      expect(shipped, `write ${example.file} from renderNginxExample()`).toBe(renderNginxExample(example));
    });

    it(`${example.file} passes nginx -t`, async () => {
      // The same directives with the pid, logs and buffers in a temp dir: nothing under /etc or /var is touched.
      const dir = await mkdtemp(join(tmpdir(), 'hafatra-nginx-t-'));
      try {
        const file = join(dir, 'nginx.conf');
        await writeFile(file, renderNginxConfig({ ...example.options, runtime: { dir, root: process.getuid?.() === 0 } }));
        const { stderr } = await promisify(execFile)(NGINX_BINARY, ['-t', '-p', dir, '-c', file, '-e', join(dir, 'error.log')]);
        expect(stderr).toMatch(/test is successful/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
