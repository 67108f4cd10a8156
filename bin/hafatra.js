#!/usr/bin/env node
// The built CLI (npm run build). Runs from any directory: the package root is found from here.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('hafatra is not built yet: run `npm run build` (or `npm start`) first.\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exit(await main(process.argv.slice(2)));
