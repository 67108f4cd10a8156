import type { ScenarioResult } from '../lib/results.js';
import { HEADERS, resultRows } from './rows.js';

export interface RunInfo {
  startedAt: string;
  target: string;
  quick: boolean;
  machine: string;
  pinning: string;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function markdownReport(info: RunInfo, results: ScenarioResult[], chartFile: string): string {
  const table = [HEADERS, HEADERS.map(() => '---'), ...resultRows(results)].map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n');
  const methods = results.map((r) => `- **${r.scenario}**: ${r.method}`).join('\n');
  return `# Hafatra bench, ${info.startedAt}

Target: ${info.target}${info.quick ? ' (quick run: small scale, figures not comparable)' : ''}.
Machine: ${info.machine}. ${info.pinning}

${table}

Ratios divide a figure by its ceiling measured in this same run (see bench/README.md).

![throughput and latency against concurrency](${chartFile})

## Methods

${methods}
`;
}
