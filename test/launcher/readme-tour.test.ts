// The README's tour, run as a newcomer would from a clean data directory: `npm start`, a
// simulated phone paired with the code `device pair` printed, the send, the webhook step with
// `webhook listen`, a received SMS, and a restart that prints a fresh setup link. Every command
// is taken from README.md (the test fails if the README no longer says it), with only its
// placeholders filled in: the key and pairing code printed, and free ports instead of 3000 and
// 4000. `npm start` and `npm run hafatra --` run the CLI from source (the build is tested in
// incremental-build.test.ts), installing is given.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pickFreePort } from '../../src/launcher/free-port.js';

const root = new URL('../../', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');

// `npm start` and `npm run hafatra -- …` from source, the rest of npm untouched.
const NPM_SHIM = `npm() {
  if [ "$1" = start ]; then exec node --import tsx src/cli/entry.ts start; fi
  if [ "$1 $2 $3" = "run hafatra --" ]; then shift 3; exec node --import tsx src/cli/entry.ts "$@"; fi
  command npm "$@"
}`;

let dataDir: string;
let port: number;
let hookPort: number;
let env: NodeJS.ProcessEnv;
const filled: Record<string, string> = {};
const running: Long[] = [];

interface Long {
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** A command exactly as README.md writes it, with its placeholders filled in. */
function fromReadme(command: string): string {
  expect(readme, `README.md no longer says:\n${command}`).toContain(command);
  let shell = command.replaceAll('localhost:3000', `localhost:${port}`).replaceAll('--port 4000', `--port ${hookPort}`);
  for (const [placeholder, value] of Object.entries(filled)) shell = shell.replaceAll(placeholder, value);
  return shell;
}

function run(command: string): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync('bash', ['-c', `${NPM_SHIM}\n${fromReadme(command)}`], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

function runLong(command: string): Long {
  const child = spawn('bash', ['-c', `${NPM_SHIM}\n${fromReadme(command)}`], { cwd: root, env });
  let text = '';
  child.stdout!.on('data', (d) => {
    text += String(d);
  });
  child.stderr!.on('data', (d) => {
    text += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const long: Long = {
    child,
    output: () => text,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
  running.push(long);
  return long;
}

const json = (res: { code: number | null; stdout: string; stderr: string }) => {
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
};

async function api(path: string): Promise<any> {
  const res = await fetch(`http://localhost:${port}${path}`, { headers: { Authorization: `Bearer ${env.KEY}` } });
  return res.json();
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hafatra-tour-'));
  port = await pickFreePort();
  hookPort = await pickFreePort();
  const { DATABASE_URL: _db, REDIS_URL: _redis, HAFATRA_URL: _url, HAFATRA_API_KEY: _key, ...parent } = process.env;
  env = { ...parent, PORT: String(port), HAFATRA_DATA_DIR: join(dataDir, '.hafatra'), HAFATRA_DRAIN_SECONDS: '0' };
});
afterAll(async () => {
  for (const long of running.reverse()) await long.stop();
  await rm(dataDir, { recursive: true, force: true });
});

it('the README tour works as written, from a clean data directory', async () => {
  // Two commands: `npm ci` is given; `npm start` prints the key and the setup link.
  const start = runLong('npm start');
  await expect.poll(() => start.output(), { timeout: 120_000 }).toMatch(/Create the first owner[^\n]*\n\s+http:\/\/localhost:\d+\/link#\S+/);
  expect(start.output()).toContain(`Hafatra listening on http://0.0.0.0:${port} (OpenAPI: /openapi.json)`);
  for (const said of [
    'Pair a phone (hafatra device pair; no phone at hand: hafatra phone-sim), then send a first message:',
    'Create the first owner of the dashboard with this one-time link (valid 24 hours):',
  ]) {
    expect(readme).toContain(said);
    expect(start.output()).toContain(said);
  }
  const key = /Its API key \(every scope\), shown only this once:\n\s+(hfk_\S+)/.exec(start.output())?.[1];
  expect(key).toBeDefined();
  const firstLink = /\/link#(\S+)/.exec(start.output())![1];
  // export KEY=hfk_…  BASE=http://localhost:3000
  expect(readme).toContain('export KEY=hfk_…  BASE=http://localhost:3000');
  Object.assign(env, { KEY: key, BASE: `http://localhost:${port}` });

  // 1. Pair a phone, or simulate one with the code printed.
  const pair = run('npm run hafatra -- device pair --name "Office phone"');
  expect(pair.code, pair.stderr).toBe(0);
  filled['ABCD-EFGH'] = /Pairing code: (\S+)/.exec(pair.stdout)![1]!;
  const phone = runLong('npm run hafatra -- phone-sim --url $BASE --code ABCD-EFGH --incoming-per-minute 12');
  await expect.poll(async () => (await api('/v1/devices')).devices?.some((d: any) => d.socket.connected), { timeout: 60_000 }).toBe(true);
  const list = run('npm run hafatra -- device list');
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toContain('Office phone');

  // 2. Send.
  const sent = json(
    run(`curl -s $BASE/v1/messages -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: order-1042" \\
  -d '{"to": ["034 12 345 67", "+33612345678"], "body": "Your order 1042 is ready"}'`),
  );
  expect(sent.batchId).toBeDefined();
  expect(sent.messages.map((m: any) => m.to)).toEqual(['+261341234567', '+33612345678']);
  // 3. Follow: the simulated phone takes both and reports on them.
  expect(json(run('curl -s "$BASE/v1/messages?status=queued&limit=10" -H "Authorization: Bearer $KEY"')).messages).toBeInstanceOf(Array);
  for (const m of sent.messages) {
    await expect.poll(async () => (await api(`/v1/messages/${m.id}`)).status, { timeout: 60_000 }).toMatch(/^(sent|delivered|failed)$/);
  }

  // 4. Webhooks: allow the loopback at run time, then webhook listen makes its endpoint.
  const allowed = run('npm run hafatra -- org update default --webhook-private-targets localhost');
  expect(allowed.code, allowed.stderr).toBe(0);
  const listen = runLong('npm run hafatra -- webhook listen --key $KEY --port 4000');
  await expect.poll(() => listen.output(), { timeout: 60_000 }).toContain('Ready.');
  expect(listen.output()).toMatch(/Created webhook endpoint whe_\S+ for http:\/\/localhost:\d+\//);
  expect(listen.output()).toMatch(/signing secret \(every delivery is verified with it\): whsec_\S+/);
  const again = json(
    run(`curl -s $BASE/v1/messages -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -d '{"to": "034 12 345 67", "body": "Webhook test"}'`),
  );
  const id = again.messages[0].id;
  const line = (type: string, status = 'valid') => new RegExp(`^\\S+Z {2}${type.replace('.', '\\.')} {2}evt_\\S+ {2}${status}$`, 'm');
  await expect.poll(() => listen.output(), { timeout: 60_000 }).toMatch(line('message.queued'));
  await expect.poll(async () => (await api(`/v1/messages/${id}`)).status, { timeout: 60_000 }).toMatch(/^(sent|delivered|failed)$/);
  await expect.poll(() => listen.output(), { timeout: 30_000 }).toMatch(line(`message.${(await api(`/v1/messages/${id}`)).status}`));
  expect(listen.output()).not.toContain('INVALID');

  // 5. Receive: the simulated phone's SMS arrive as incoming.received and in the list.
  await expect.poll(() => listen.output(), { timeout: 90_000 }).toMatch(line('incoming.received'));
  const received = json(run('curl -s "$BASE/v1/incoming?limit=5" -H "Authorization: Bearer $KEY"'));
  expect(received.messages.length).toBeGreaterThan(0);
  // Not a terminal: the logs are JSON, per-request lines included, for collectors.
  expect(start.output()).toMatch(/^\{"level":30,.*"msg":"request"\}$/m);

  // A restart while nobody owns the dashboard prints a fresh setup link; the webhook keeps working.
  await phone.stop();
  expect(await start.stop()).toBe(0);
  const restart = runLong('npm start');
  await expect.poll(() => restart.output(), { timeout: 120_000 }).toMatch(/Create the first owner[^\n]*\n\s+http:\/\/localhost:\d+\/link#\S+/);
  expect(/\/link#(\S+)/.exec(restart.output())![1]).not.toBe(firstLink);
  expect(restart.output()).not.toContain('Its API key');
}, 600_000);
