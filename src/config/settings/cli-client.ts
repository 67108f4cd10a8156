import { text, type Setting } from '../setting-kinds.js';

/** What the CLI reads when it talks to a running Hafatra over its API (`hafatra mcp`, `hafatra webhook listen`). */
export const cliClientSettings = {
  apiKey: {
    env: 'HAFATRA_API_KEY',
    default: '',
    kind: text(),
    doc: 'API key `hafatra mcp` and `hafatra webhook listen` use (`--key` wins for the latter); read from the environment so that it never shows in `ps`.',
  },
  apiUrl: {
    env: 'HAFATRA_URL',
    default: '',
    kind: text({ label: 'URL' }),
    doc: 'Address of the Hafatra API those commands talk to (`--url` wins). Empty: `http://localhost:3000`, or the PORT of this environment for `webhook listen`.',
  },
} as const satisfies Record<string, Setting>;
