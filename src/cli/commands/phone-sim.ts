import { readFile } from 'node:fs/promises';
import { UsageError, optionalInt, requireString, type Command, type CommandArgs, type CommandIo } from '../command.js';
import type { Fleet, FleetPhoneOptions } from '../../phone/fleet.js';
import { progressLine, summarize, summaryLines } from '../../phone/fleet-report.js';

const USAGE =
  'hafatra phone-sim --url URL (--code CODE[,CODE…] | --codes FILE | --tokens FILE) [--count N] [--latency-ms 200] ' +
  '[--failure-rate 0.02] [--delivery-rate 0.9] [--concurrency 1] [--incoming-per-minute 0] [--heartbeat-seconds 60] ' +
  '[--duration S] [--json]';
const NAME_PREFIX = 'Simulated phone';

function optionalNumber(args: CommandArgs, name: string, min: number, max: number): number | undefined {
  const v = args.values[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

/** One token or pairing code per line; blank lines and # comments skipped. */
async function readLines(path: string, count: number | undefined): Promise<string[]> {
  const lines = (await readFile(path, 'utf8'))
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines.length === 0) throw new UsageError(`${path} holds no line`);
  if (count !== undefined && lines.length < count) throw new UsageError(`--count ${count} but ${path} holds ${lines.length} lines`);
  return lines.slice(0, count);
}

function phoneOptions(args: CommandArgs): FleetPhoneOptions {
  const heartbeatSeconds = optionalInt(args, 'heartbeat-seconds', 0, 86_400);
  return {
    latencyMs: optionalInt(args, 'latency-ms', 0, 600_000) ?? 200,
    failureRate: optionalNumber(args, 'failure-rate', 0, 1) ?? 0.02,
    deliveryRate: optionalNumber(args, 'delivery-rate', 0, 1) ?? 0.9,
    concurrency: optionalInt(args, 'concurrency', 1, 10_000) ?? 1,
    incomingPerMinute: optionalNumber(args, 'incoming-per-minute', 0, 60_000) ?? 0,
    heartbeatIntervalMs: (heartbeatSeconds ?? 60) * 1000,
    // A long run must not keep one entry per message it ever saw.
    recordArrivals: false,
  };
}

/**
 * Like a real phone, a simulated one needs only the server's URL and a pairing code (from
 * `hafatra device pair` or the dashboard), exchanged over HTTP: nothing here reaches the server's
 * database or Redis, so the simulator outlives restarts of the server it runs against.
 */
async function fleetFrom(args: CommandArgs, url: string): Promise<Fleet> {
  // Loaded when a simulation runs, not with the command table every hafatra process reads.
  const { Fleet } = await import('../../phone/fleet.js');
  const count = optionalInt(args, 'count', 1, 100_000);
  if (args.values.org !== undefined || args.values['pacing-per-minute'] !== undefined) {
    throw new UsageError(
      'phone-sim pairs like a phone, with a pairing code: print one with `hafatra device pair --org ORG` (or on the dashboard) and pass --code CODE; set pacing with `hafatra device update`',
    );
  }
  const sources = ['code', 'codes', 'tokens'].filter((s) => typeof args.values[s] === 'string');
  if (sources.length !== 1) throw new UsageError('give exactly one of --code CODE, --codes FILE or --tokens FILE');
  const opts = { baseUrl: url, namePrefix: NAME_PREFIX, ...phoneOptions(args) };
  if (sources[0] === 'tokens') return Fleet.start({ ...opts, tokens: await readLines(args.values.tokens as string, count) });
  if (sources[0] === 'codes') return Fleet.start({ ...opts, codes: await readLines(args.values.codes as string, count) });
  const codes = (args.values.code as string)
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (codes.length === 0) throw new UsageError('--code takes a pairing code (hafatra device pair prints one)');
  return Fleet.start({ ...opts, codes });
}

/** Resolves on Ctrl-C or after `seconds` (if given). */
function runUntilStopped(seconds: number | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      clearTimeout(timer);
      resolve();
    };
    const timer = seconds === undefined ? undefined : setTimeout(done, seconds * 1000);
    process.once('SIGINT', done);
  });
}

/** The live progress line, rewritten in place on a terminal, a plain line every 10 s otherwise. */
function showProgress(fleet: Fleet, startedAt: number): () => void {
  const tty = process.stderr.isTTY === true;
  let last = { at: startedAt, settled: 0 };
  const timer = setInterval(
    () => {
      const t = fleet.totals();
      const now = Date.now();
      const settled = t.sent + t.failed;
      const line = progressLine(t, ((settled - last.settled) * 1000) / Math.max(1, now - last.at), (now - startedAt) / 1000);
      last = { at: now, settled };
      process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
    tty ? 500 : 10_000,
  );
  return () => {
    clearInterval(timer);
    if (tty) process.stderr.write('\n');
  };
}

async function run(args: CommandArgs, io: CommandIo): Promise<number> {
  const url = requireString(args, 'url').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new UsageError('--url must start with http:// or https://');
  const duration = optionalInt(args, 'duration', 1, 30 * 86_400);
  const fleet = await fleetFrom(args, url);
  const startedAt = Date.now();
  const stopProgress = args.json ? () => {} : showProgress(fleet, startedAt);
  await runUntilStopped(duration);
  stopProgress();
  const totals = fleet.totals();
  const seconds = (Date.now() - startedAt) / 1000;
  const summary = summarize(totals, seconds, fleet.sendLatencies(), fleet.recentErrors());
  await fleet.stop();
  if (args.json) io.out(JSON.stringify(summary, null, 2));
  else for (const line of summaryLines(summary)) io.out(line);
  return 0;
}

export const phoneSimCommands: Command[] = [
  {
    path: ['phone-sim'],
    summary: 'Run N simulated phones against a server (send latency, failures, delivery reports, received SMS)',
    usage: USAGE,
    options: {
      url: { type: 'string' },
      count: { type: 'string' },
      tokens: { type: 'string' },
      code: { type: 'string' },
      codes: { type: 'string' },
      org: { type: 'string' },
      'latency-ms': { type: 'string' },
      'failure-rate': { type: 'string' },
      'delivery-rate': { type: 'string' },
      concurrency: { type: 'string' },
      'incoming-per-minute': { type: 'string' },
      'heartbeat-seconds': { type: 'string' },
      'pacing-per-minute': { type: 'string' },
      duration: { type: 'string' },
    },
    run,
  },
];
