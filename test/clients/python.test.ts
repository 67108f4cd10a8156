import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDevCertificate } from '../../src/webhooks/delivery/dev-certificate.js';
import { pairTestPhone } from '../support/phones.js';
import { startClientRig, type ClientRig } from './rig.js';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy.js';
import { MOBILE_MONEY_SAMPLES } from '../../src/phone/sample-sms.js';

/**
 * The Python client's suite (clients/python/tests, pytest) against a real Hafatra started here,
 * with a simulated phone: this file prepares the server, the keys and the receiver's certificate,
 * runs `python3 -m pytest` (HAFATRA_PYTHON names another interpreter) and fails when it does.
 * Debian's mypy then checks what py.typed promises: the package and its tests, strict, as
 * Python 3.9 reads them.
 */
const python = process.env.HAFATRA_PYTHON ?? 'python3';
const clientDir = fileURLToPath(new URL('../../clients/python/', import.meta.url));
let rig: ClientRig;
let dir: string;
let env: Record<string, string>;
let proxy: FlakyProxy;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hafatra-python-'));
  const { cert, key } = createDevCertificate();
  await writeFile(join(dir, 'cert.pem'), cert);
  await writeFile(join(dir, 'key.pem'), key);
  rig = await startClientRig({ receiverCa: cert });
  proxy = await startFlakyProxy(rig.app.url);
  const readOnly = await rig.app.createKey(rig.orgId, ['messages:read']);
  const rateLimited = await rig.app.createKey(rig.orgId, ['devices:read'], { ratePerSecond: 1, rateBurst: 1 });
  const limitedOrg = await rig.app.createOrg({ dailyLimit: 1 });
  await pairTestPhone(rig.app, limitedOrg.org.id);
  env = {
    HAFATRA_URL: rig.app.url,
    // test/clients/flaky-proxy.ts: 503 + Retry-After on each send's first attempt, a 500 on msg_http500.
    HAFATRA_FLAKY_URL: proxy.url,
    HAFATRA_API_KEY: rig.key,
    HAFATRA_READ_ONLY_KEY: readOnly.key,
    HAFATRA_RATE_LIMITED_KEY: rateLimited.key,
    HAFATRA_DAILY_LIMITED_KEY: limitedOrg.key,
    HAFATRA_DEVICE_ID: rig.deviceId,
    // The phone's own token: the suite reports received SMS as the phone does (POST /device/v1/incoming).
    HAFATRA_DEVICE_TOKEN: rig.deviceToken,
    HAFATRA_PAYMENT_SMS: JSON.stringify(MOBILE_MONEY_SAMPLES[0]),
    HAFATRA_RECEIVER_CERT: join(dir, 'cert.pem'),
    HAFATRA_RECEIVER_KEY: join(dir, 'key.pem'),
  };
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await rig?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function run(command: string, args: string[], extraEnv: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: clientDir,
      // No .pyc files or pytest cache left in the tree.
      env: { ...process.env, ...extraEnv, PYTHONPATH: clientDir, PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error(`${command} is not installed: apt-get install python3 python3-pytest mypy (.ci/run does)`) : error));
    child.on('close', (code) => resolve({ code, output }));
  });
}

it('passes the Python suite: the whole cycle, 500 paged back, idempotent retries, Retry-After, typed errors', async () => {
  const { code, output } = await run(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], env);
  expect(code, output).toBe(0);
  expect(output).toMatch(/\b13 passed\b/);
}, 180_000);

it('type-checks under mypy --strict as Python 3.9 (what py.typed promises its users)', async () => {
  const { code, output } = await run('mypy', ['--strict', '--python-version', '3.9', '--cache-dir', join(dir, 'mypy-cache'), 'hafatra', 'tests'], {});
  expect(code, output).toBe(0);
  expect(output).toMatch(/^Success: no issues found/m);
}, 120_000);
