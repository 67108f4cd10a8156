import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScenarioResult } from '../lib/results.js';
import { markdownReport, type RunInfo } from './markdown.js';
import { sweepChart } from './svg.js';

export interface ResultFiles {
  json: string;
  md: string;
  svg: string;
}

/** bench/results/<timestamp>.json, .md and .svg. */
export async function writeResults(dir: string, info: RunInfo, results: ScenarioResult[]): Promise<ResultFiles> {
  await mkdir(dir, { recursive: true });
  const stamp = info.startedAt.replace(/[:.]/g, '-');
  const files = { json: join(dir, `${stamp}.json`), md: join(dir, `${stamp}.md`), svg: join(dir, `${stamp}.svg`) };
  const sweep = results.flatMap((r) => r.sweep);
  await writeFile(files.json, `${JSON.stringify({ ...info, results }, null, 2)}\n`);
  await writeFile(files.svg, sweepChart(sweep));
  await writeFile(files.md, markdownReport(info, results, `${stamp}.svg`));
  return files;
}
