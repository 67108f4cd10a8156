#!/usr/bin/env node
// `npm run build` (and so `npm start`): builds only what changed since the last build.
// - The server: skipped when no file under src/ or bench/, no tsconfig and not the lock file is
//   newer than the last successful build's stamp (dist/src/.build-stamp); otherwise tsc with an
//   incremental build-info file kept in dist/src, which checks and writes only what changed.
// - The dashboard: vite builds it again only when one of the files it was built from (recorded
//   by the last build in dist/dashboard/.inputs.json, by dashboard/vite.config.ts), the dashboard folder's file list, the
//   lock file or this script is newer than that build. `--force` builds everything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');
const say = (line) => quiet || process.stderr.write(`build: ${line}\n`);
const dashboardOut = join(root, 'dist/dashboard');
const inputsFile = join(dashboardOut, '.inputs.json');

const serverStamp = join(root, 'dist/src/.build-stamp');

function treeFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? treeFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

function serverUpToDate() {
  if (force || !existsSync(serverStamp)) return false;
  const builtAt = mtime(serverStamp);
  const inputs = [...treeFiles(join(root, 'src')), ...treeFiles(join(root, 'bench')), ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build.mjs'].map((f) => join(root, f))];
  // A file deleted since: the stamp also records how many there were.
  return readFileSync(serverStamp, 'utf8').trim() === String(inputs.length) && inputs.every((file) => mtime(file) <= builtAt);
}

function server() {
  if (serverUpToDate()) {
    say('server unchanged, not rebuilt');
    return;
  }
  rmSync(serverStamp, { force: true });
  const started = Date.now();
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '-p', join(root, 'tsconfig.build.json')];
  const run = spawnSync(process.execPath, force ? [...args, '--force'] : args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const inputs = treeFiles(join(root, 'src')).length + treeFiles(join(root, 'bench')).length + 4;
  writeFileSync(serverStamp, `${inputs}\n`);
  // Dated when tsc started: a file saved while it ran is newer, so the next build sees it.
  utimesSync(serverStamp, started / 1000, started / 1000);
  say(`server checked and built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY; // gone: build again
  }
};

function dashboardFiles(dir = join(root, 'dashboard')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? dashboardFiles(join(dir, e.name)) : [relative(root, join(dir, e.name))]));
}

/** Why the dashboard must be built again, or null when dist/dashboard is up to date. */
function dashboardStale() {
  if (force) return 'forced';
  if (!existsSync(inputsFile) || !existsSync(join(dashboardOut, 'index.html'))) return 'no earlier build';
  const recorded = JSON.parse(readFileSync(inputsFile, 'utf8'));
  const builtAt = mtime(inputsFile);
  const files = dashboardFiles();
  if (files.join('\n') !== recorded.dashboardFiles.join('\n')) return 'files were added or removed';
  const inputs = [...new Set([...recorded.inputs, ...files, 'package-lock.json', 'scripts/build.mjs'])];
  const newer = inputs.find((file) => mtime(join(root, file)) > builtAt);
  return newer ? `${newer} changed` : null;
}

async function dashboard() {
  const why = dashboardStale();
  if (!why) {
    say('dashboard unchanged, not rebuilt');
    return;
  }
  const started = Date.now();
  const { build } = await import('vite');
  // The config's own plugin records what the build read (dist/dashboard/.inputs.json).
  await build({ configFile: join(root, 'dashboard/vite.config.ts') });
  say(`dashboard built in ${((Date.now() - started) / 1000).toFixed(1)} s (${why})`);
}

server();
await dashboard();
