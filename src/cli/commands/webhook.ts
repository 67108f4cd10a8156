import { UsageError, optionalInt, requireString, type Command } from '../command.js';
import { runWebhookListener } from '../webhook-listen.js';

export const webhookCommands: Command[] = [
  {
    path: ['webhook', 'listen'],
    summary: 'A local HTTPS receiver that verifies and prints each delivery (development)',
    usage: 'hafatra webhook listen --port N --secret whsec_…',
    options: { port: { type: 'string' }, secret: { type: 'string' } },
    async run(args, io) {
      const port = optionalInt(args, 'port', 1, 65535) ?? 4443;
      const secret = requireString(args, 'secret');
      if (!secret.startsWith('whsec_')) throw new UsageError('--secret is the whsec_… secret shown when the endpoint was created');
      const listener = await runWebhookListener({ port, secret, out: io.out });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await listener.close();
      return 0;
    },
  },
];
