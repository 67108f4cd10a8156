import type { Setting } from './setting-kinds.js';
import { cliClientSettings, settings } from './settings.js';

const cell = (s: string) => s.replaceAll('|', '\\|');
const code = (s: string) => (s === '' ? '(empty)' : `\`${s}\``);

/** A settings table as Markdown, one row per entry. */
export function settingsTable(table: Record<string, Setting>): string {
  const rows = Object.values(table).map((s) => `| \`${s.env}\` | ${cell(s.kind.label)} | ${code(s.default)} | ${cell(s.doc)} |`);
  return ['| Variable | Type | Default | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The parts of docs/configuration.md written from the tables, by the name of their markers. */
const generated: Record<string, string> = { settings: settingsTable(settings), 'cli-client-settings': settingsTable(cliClientSettings) };

/**
 * docs/configuration.md with each generated part rewritten between its markers
 * (`<!-- generated: NAME … -->` and `<!-- end generated: NAME -->`); the rest is kept as written.
 */
export function withGeneratedTables(doc: string): string {
  let out = doc;
  for (const [name, table] of Object.entries(generated)) {
    const start = `<!-- generated: ${name} (npm run config:docs, from src/config/settings.ts) -->`;
    const end = `<!-- end generated: ${name} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/configuration.md: markers of ${name} missing (${start} … ${end})`);
    out = `${out.slice(0, from + start.length)}\n${table}\n${out.slice(to)}`;
  }
  return out;
}
