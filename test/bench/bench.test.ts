import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ALL = ['ceilings', 'bulk-send', 'read', 'fleet', 'app-fleet', 'fleet-chaos', 'sockets', 'webhooks', 'parse', 'dashboard-pages', 'scheduler', 'noisy-neighbour'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bench(args: string[], timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], {
      env: { ...process.env, HAFATRA_BENCH_FROM_SOURCE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function resultFiles(dir: string) {
  const names = await readdir(dir);
  const base = names.find((n) => n.endsWith('.json'))?.replace(/\.json$/, '');
  if (!base) throw new Error(`no result JSON in ${dir}: ${names.join(', ')}`);
  expect(names).toEqual(expect.arrayContaining([`${base}.md`, `${base}.svg`]));
  return {
    json: JSON.parse(await readFile(join(dir, `${base}.json`), 'utf8')),
    md: await readFile(join(dir, `${base}.md`), 'utf8'),
    svg: await readFile(join(dir, `${base}.svg`), 'utf8'),
  };
}

describe('npm run bench --quick (every scenario against a local server, small scale)', () => {
  it('completes every scenario and writes the table, JSON, Markdown, SVG and flame graphs', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-results-'));
    const run = await bench(['--quick', '--profile', '--out', out], 230_000);
    expect(run.stderr + run.stdout).not.toMatch(/failed:/);
    expect(run.code).toBe(0);
    const { json, md, svg } = await resultFiles(out);
    expect(json.quick).toBe(true);
    expect(json.results.map((r: { scenario: string }) => r.scenario)).toEqual(ALL);
    const byKey = new Map<string, { value: number; ratio?: number }>(json.results.flatMap((r: { figures: Array<{ key: string }> }) => r.figures.map((f) => [f.key, f])));
    for (const key of [
      'ceilings.hello-post.messagesPerSecond',
      'ceilings.hello-get.requestsPerSecond',
      'ceilings.postgres.rowsPerSecond',
      'ceilings.redis.messagesPerSecond',
      'bulk-send.messagesPerSecond',
      'bulk-send.p99',
      'read.getByIdPerSecond',
      'read.listPerSecond',
      'fleet.deliveredPerSecond',
      'fleet.jobsLatency.p99',
      'fleet-chaos.deliveredPerSecond',
      'fleet-chaos.high.p99',
      'sockets.held',
      'sockets.apiRssMb',
      'webhooks.deliveriesPerSecond',
      'webhooks.hangingLossPercent',
      'parse.smsPerSecond',
      'dashboard-pages.large.first-page.p99',
      'dashboard-pages.small.overview.p50',
      'scheduler.dueToQueued.p99',
      'scheduler.redisBytesPerWaitingBatch',
      'scheduler.indexBytesPerWaitingMessage',
      'noisy-neighbour.sendRatio',
      'noisy-neighbour.readRatio',
      'noisy-neighbour.heavy.sendRatio',
    ]) {
      expect(byKey.get(key), key).toBeDefined();
    }
    // Work actually happened: sends were accepted, phones held, the ratios were filled in.
    expect(byKey.get('bulk-send.messagesPerSecond')!.value).toBeGreaterThan(0);
    expect(byKey.get('bulk-send.messagesPerSecond')!.ratio).toBeGreaterThan(0);
    expect(byKey.get('sockets.held')!.value).toBe(100);
    // Chaos: phones went silent or hit the limit, their jobs moved, and no message was sent twice
    // or left behind.
    expect(byKey.get('fleet-chaos.sentTwice')!.value).toBe(0);
    expect(byKey.get('fleet-chaos.stuck')!.value).toBe(0);
    expect(Number.isFinite(byKey.get('fleet-chaos.reach.p50')!.value)).toBe(true);
    expect(run.stdout).toMatch(/scenario\s+figure\s+value\s+target\s+pass/);
    expect(md).toContain('| bulk-send | messages accepted/s');
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<polyline');
    // --profile: the API's and the worker's profiles, each with its flame graph showing our code.
    const profiles = (await readdir(out)).find((n) => n.startsWith('profiles-'));
    expect(profiles).toBeDefined();
    const profileFiles = await readdir(join(out, profiles!));
    expect(profileFiles).toEqual(expect.arrayContaining(['api.cpuprofile', 'api.flame.svg', 'worker.cpuprofile', 'worker.flame.svg']));
    const apiFlame = await readFile(join(out, profiles!, 'api.flame.svg'), 'utf8');
    expect(apiFlame).toMatch(/<title>\w+ src\/messages\/[\w-]+\.ts:\d+: [\d.]+ ms/);
    expect(run.stdout).toContain('flame graphs:');
  }, 240_000);
});

describe('bench against a remote deployment', () => {
  it('marks a scenario that needs the local server as not available, and still writes results', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-results-'));
    const run = await bench(['webhooks', 'parse', '--quick', '--url', 'http://127.0.0.1:9', '--key', 'hf_x', '--out', out], 60_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/webhooks\s+not available yet: needs the local server/);
    const { json } = await resultFiles(out);
    expect(json.results.map((r: { status: string }) => r.status)).toEqual(['skipped', 'ok']);
  }, 70_000);

  it('refuses --url without a key, and an unknown scenario, with the usage', async () => {
    const noKey = await bench(['bulk-send', '--url', 'http://127.0.0.1:9'], 30_000);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('--url needs --key');
    const unknown = await bench(['bulk-sned'], 30_000);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario bulk-sned');
  }, 70_000);
});
