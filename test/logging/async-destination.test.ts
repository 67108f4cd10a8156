import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../src/logging/logger.ts', import.meta.url));

/** A process that logs `lines` JSON lines through createLogger, then ends as the script says. */
function logThenEnd(lines: number, end: string) {
  const script = `
    const { createLogger } = await import(${JSON.stringify(LOGGER)});
    const log = createLogger('info', 'hafatra', 'json');
    for (let i = 0; i < ${lines}; i++) log.info({ requestId: 'req_' + i, status: 200 }, 'request');
    ${end}
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

describe('JSON logs written asynchronously', () => {
  it('loses no line when the process exits at once after writing them', () => {
    const run = logThenEnd(20_000, 'process.exit(3);');
    expect(run.status).toBe(3);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { requestId: string; msg: string });
    expect(lines).toHaveLength(20_000);
    expect(lines[0]).toMatchObject({ requestId: 'req_0', msg: 'request' });
    expect(lines.at(-1)).toMatchObject({ requestId: 'req_19999' });
  });

  it('loses no line when the process throws', () => {
    const run = logThenEnd(5_000, "throw new Error('boom');");
    expect(run.status).not.toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(5_000);
    expect(run.stderr).toContain('boom');
  });
});
