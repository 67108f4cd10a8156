import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { OpenApiDocument } from './api-model.js';
import { loadDocument } from './document.js';
import { generatePython } from './python.js';
import { generateTypeScript } from './typescript.js';

/** The generated files of both clients, by path from the repository's root. */
export function generatedFiles(document: OpenApiDocument): Record<string, string> {
  return {
    'clients/typescript/src/generated.ts': generateTypeScript(document),
    'clients/python/hafatra/_generated.py': generatePython(document),
  };
}

const root = fileURLToPath(new URL('../../', import.meta.url));

// npm run clients:generate [-- <url or file of an OpenAPI document>]
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = generatedFiles(await loadDocument(process.argv[2]));
  for (const [path, text] of Object.entries(files)) {
    await writeFile(root + path, text);
    process.stdout.write(`wrote ${path}\n`);
  }
}
