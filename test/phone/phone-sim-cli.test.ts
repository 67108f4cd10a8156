import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPhoneTestApp, pairTestPhone, sendMessages, eventually, type PhoneTestApp } from '../support/phones.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { testDatabaseUrl } from '../support/database.js';

let app: PhoneTestApp;
let dir: string;
beforeAll(async () => {
  app = await startPhoneTestApp();
  dir = await mkdtemp(join(tmpdir(), 'phone-sim-'));
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

interface Sim {
  stdout: string;
  stderr: string;
  exited: Promise<number>;
  interrupt(): void;
}

/** `hafatra phone-sim …` in its own process, as the bench runs it, next to the test's database. */
function phoneSim(...given: [{ bare: true }, ...string[]] | string[]): Sim {
  const bare = typeof given[0] === 'object';
  const args = (bare ? given.slice(1) : given) as string[];
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...parent } = process.env;
  const env = bare
    ? { ...parent, LOG_LEVEL: 'silent', HAFATRA_DATA_DIR: join(dir, 'no-services-here') }
    : { ...parent, DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: app.ctx.config.redisPrefix, LOG_LEVEL: 'silent' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'phone-sim', '--url', app.url, ...args], { env });
  const sim: Sim = {
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1))),
    interrupt: () => child.kill('SIGINT'),
  };
  child.stdout.on('data', (d) => {
    sim.stdout += String(d);
  });
  child.stderr.on('data', (d) => {
    sim.stderr += String(d);
  });
  return sim;
}

const connectedCount = async (orgId: string) => Number((await app.ctx.db.query('SELECT count(*) FROM devices WHERE org_id = $1 AND socket_connected', [orgId])).rows[0].count);

describe('hafatra phone-sim', () => {
  it('runs phones from a token file until Ctrl-C and prints a JSON summary of what they did', async () => {
    const { org, key } = await app.createOrg();
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push((await pairTestPhone(app, org.id, { pacingPerMinute: 10_000 })).token);
    const file = join(dir, 'tokens.txt');
    await writeFile(file, `# simulated phones\n${tokens.join('\n')}\n\n`);

    const sim = phoneSim('--tokens', file, '--latency-ms', '5', '--failure-rate', '0', '--delivery-rate', '1', '--concurrency', '10', '--json');
    try {
      await eventually(async () => (await connectedCount(org.id)) === 3, 20_000, 'three phones connected');
      const ids = await sendMessages(app, key, 30);
      await eventually(
        async () => {
          const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'delivered'`, [ids]);
          return rows[0].n === 30;
        },
        10_000,
        'thirty messages delivered',
      );
    } finally {
      sim.interrupt();
    }
    // What the simulator said goes with each failure: a rare failure here could not be explained.
    expect(await sim.exited, sim.stderr).toBe(0);
    const summary = JSON.parse(sim.stdout);
    expect(summary, `${sim.stdout}\n${sim.stderr}`).toMatchObject({ phones: 3, jobsReceived: 30, sent: 30, delivered: 30, failed: 0, errors: 0 });
    expect(summary.sendLatencyMs.p50).toBeGreaterThan(0);
    await eventually(async () => (await connectedCount(org.id)) === 0, 5000, 'phones disconnected after the run');
  }, 60_000);

  it('pairs with --code and nothing else than the URL (no database, no Redis in its environment), and stops after --duration', async () => {
    const { org } = await app.createOrg();
    const codes = [(await createPairingCode(app.ctx, org.id, 'Desk sim')).code, (await createPairingCode(app.ctx, org.id)).code];
    const sim = phoneSim({ bare: true }, '--code', codes.join(','), '--incoming-per-minute', '0', '--duration', '2', '--json');
    expect(await sim.exited, sim.stderr).toBe(0);
    expect(JSON.parse(sim.stdout)).toMatchObject({ phones: 2, errors: 0 });
    const { rows } = await app.ctx.db.query('SELECT count(*)::int AS n FROM devices WHERE org_id = $1', [org.id]);
    expect(rows[0].n).toBe(2);
    // The old way, which reached into the server's database and Redis, says what to do instead.
    const old = phoneSim({ bare: true }, '--org', org.name, '--count', '2');
    expect(await old.exited).toBe(2);
    expect(old.stderr).toContain('phone-sim pairs like a phone, with a pairing code');
  }, 60_000);

  it('pairs phones from a file of pairing codes', async () => {
    const { org } = await app.createOrg();
    const file = join(dir, 'codes.txt');
    await writeFile(file, (await createPairingCode(app.ctx, org.id)).code);
    const sim = phoneSim('--codes', file, '--duration', '1', '--json');
    expect(await sim.exited, sim.stderr).toBe(0);
    expect(JSON.parse(sim.stdout)).toMatchObject({ phones: 1 });
    expect((await app.ctx.db.query('SELECT count(*)::int AS n FROM devices WHERE org_id = $1', [org.id])).rows[0].n).toBe(1);
  }, 60_000);

  it('refuses unusable arguments with its usage (exit 2), and a refused token with exit 1', async () => {
    const none = phoneSim('--duration', '1');
    expect(await none.exited).toBe(2);
    expect(none.stderr).toMatch(/exactly one of --code CODE, --codes FILE or --tokens FILE[\s\S]*usage: hafatra phone-sim/);

    const rate = phoneSim('--code', 'x', '--failure-rate', '2');
    expect(await rate.exited).toBe(2);
    expect(rate.stderr).toContain('--failure-rate must be a number from 0 to 1');

    const file = join(dir, 'bad-token.txt');
    await writeFile(file, `hfd_${'C'.repeat(43)}\n`);
    const refused = phoneSim('--tokens', file, '--duration', '1');
    expect(await refused.exited).toBe(1);
    expect(refused.stderr).toContain('refused this device token');
  }, 60_000);
});
