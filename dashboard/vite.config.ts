import { defineConfig, type Plugin } from 'vite';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/dashboard', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [relative(root, join(dir, e.name))]));
}

/**
 * Records the files this build was made from (dist/dashboard/.inputs.json), whoever runs it:
 * scripts/build.mjs builds the dashboard again only when one of them, or the folder's list of
 * files, changed since.
 */
function recordInputs(): Plugin {
  const inputs = new Set<string>();
  let startedAt = Date.now();
  return {
    name: 'hafatra-record-inputs',
    buildStart() {
      startedAt = Date.now();
    },
    load(id) {
      const file = id.split('?')[0]!;
      if (file.startsWith(root) && !file.includes('/node_modules/')) inputs.add(relative(root, file));
      return null;
    },
    writeBundle() {
      const record = { inputs: [...inputs].sort(), dashboardFiles: filesUnder(join(root, 'dashboard')) };
      const file = join(outDir, '.inputs.json');
      writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
      // Dated when the build started: a file saved while it ran is newer, so the next build sees it.
      utimesSync(file, startedAt / 1000, startedAt / 1000);
    },
  };
}

// The dashboard is built into dist/dashboard and served by the API process (src/dashboard/).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: {
    outDir,
    emptyOutDir: true,
    // No inline script or style may reach index.html: the Content-Security-Policy forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  plugins: [recordInputs()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  logLevel: 'warn',
});
