// Writes the settings tables of docs/configuration.md from src/config/settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { withGeneratedTables } from '../src/config/settings-doc.js';

const path = new URL('../docs/configuration.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withGeneratedTables(before);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'docs/configuration.md: up to date' : 'docs/configuration.md: tables rewritten');
