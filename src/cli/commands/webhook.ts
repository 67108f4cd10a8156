import { UsageError, optionalInt, type Command, type CommandArgs } from '../command.js';
import { cliClientSettings, readSettings, settings } from '../../config/config.js';

const DEFAULT_PORT = 4000;

function until(signals: NodeJS.Signals[]): Promise<void> {
  return new Promise((resolve) => {
    for (const signal of signals) process.once(signal, () => resolve());
  });
}

function apiOf(args: CommandArgs): { apiUrl: string; apiKey: string } | null {
  const client = readSettings(cliClientSettings);
  const apiKey = typeof args.values.key === 'string' ? args.values.key : client.apiKey;
  if (!apiKey) return null;
  const apiUrl = (typeof args.values.url === 'string' ? args.values.url : client.apiUrl) || `http://localhost:${readSettings({ port: settings.port }).port}`;
  if (!/^https?:\/\/[^/]/.test(apiUrl)) throw new UsageError(`--url must be an http(s) address, not ${apiUrl}`);
  return { apiUrl, apiKey };
}

function eventTypesOf(args: CommandArgs): string[] {
  const v = args.values.events;
  return typeof v === 'string'
    ? v
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '')
    : [];
}

export const webhookCommands: Command[] = [
  {
    path: ['webhook', 'listen'],
    summary: 'A local receiver: registers its endpoint through the API, verifies and prints each delivery (development)',
    usage:
      'hafatra webhook listen [--key hfk_… | HAFATRA_API_KEY=hfk_…] [--url http://localhost:3000] [--port 4000] [--events message.sent,…] [--https]   or, for an endpoint made by hand: --secret whsec_…',
    options: { port: { type: 'string' }, secret: { type: 'string' }, key: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' }, https: { type: 'boolean' } },
    async run(args, io) {
      const port = optionalInt(args, 'port', 1, 65535) ?? DEFAULT_PORT;
      const given = typeof args.values.secret === 'string' ? args.values.secret : undefined;
      if (given !== undefined && !given.startsWith('whsec_')) throw new UsageError('--secret is the whsec_… secret shown when the endpoint was created');
      const api = apiOf(args);
      if (!api && given === undefined) throw new UsageError('give an API key with the scopes webhooks:read and webhooks:write (--key or HAFATRA_API_KEY), or --secret');
      // Loaded when a listener runs, not with the command table every hafatra process reads.
      const [{ runWebhookListener }, { ensureListenEndpoint, ListenEndpointError }] = await Promise.all([import('../webhook-listen.js'), import('../webhook-listen-endpoint.js')]);
      const listener = await runWebhookListener({ port, secret: given, tls: args.values.https === true, out: io.out });
      try {
        if (api) {
          const endpoint = await ensureListenEndpoint({ ...api, listenUrl: listener.url, eventTypes: eventTypesOf(args) });
          listener.setSecret(endpoint.secret);
          io.out(`${endpoint.created ? 'Created' : 'Reusing'} webhook endpoint ${endpoint.id} for ${listener.url} (${api.apiUrl})`);
          io.out(`Its signing secret (every delivery is verified with it): ${endpoint.secret}`);
        }
        io.out('Ready. Each delivery prints one line; Ctrl-C stops.');
      } catch (err) {
        await listener.close();
        if (!(err instanceof ListenEndpointError)) throw err;
        io.err(`error: ${err.message}`);
        if (/not a public address|must use https/.test(err.message)) {
          io.err('An owner of the organization allows this loopback listener, at run time, with:');
          io.err('  hafatra org update ORG --webhook-private-targets localhost   (or on the dashboard: Settings, Private webhook targets)');
        }
        return 1;
      }
      await until(['SIGINT', 'SIGTERM']);
      await listener.close();
      return 0;
    },
  },
];
