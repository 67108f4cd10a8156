import { cliClientSettings, readSettings } from '../../config/config.js';
import { UsageError, optionalInt, type Command } from '../command.js';
import { MCP_SCOPES } from '../../mcp/scopes.js';

const DEFAULT_DAILY_LIMIT = 100;
const DEFAULT_CONFIRM_ABOVE = 10;

/**
 * `hafatra mcp`: an MCP server on stdin/stdout for an AI agent, talking to a running Hafatra over
 * its API. The key comes from the environment only (an argument would show in `ps`); stdout
 * carries the protocol alone, so every line of ours goes to stderr.
 */
export const mcpCommands: Command[] = [
  {
    path: ['mcp'],
    summary: 'MCP server (stdio) for AI agents: send SMS with safety rails, read messages, received SMS, mobile money, phones',
    usage: `HAFATRA_API_KEY=hfk_… hafatra mcp [--url http://localhost:3000] [--daily-limit ${DEFAULT_DAILY_LIMIT}] [--confirm-above ${DEFAULT_CONFIRM_ABOVE}]   (key scopes: ${MCP_SCOPES.join(', ')})`,
    options: { url: { type: 'string' }, 'daily-limit': { type: 'string' }, 'confirm-above': { type: 'string' } },
    async run(args, io) {
      const { apiKey, apiUrl } = readSettings(cliClientSettings);
      if (!apiKey) throw new UsageError(`set HAFATRA_API_KEY to an API key with the scopes ${MCP_SCOPES.join(', ')}`);
      const url = (typeof args.values.url === 'string' ? args.values.url : apiUrl) || 'http://localhost:3000';
      if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url must be an http(s) address, not ${url}`);
      // Loaded here, not with the command table: every hafatra process (api, worker) reads the
      // table, and the MCP SDK and zod are megabytes of heap none of them uses.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../mcp/server.js')]);
      const server = createMcpServer({
        url,
        apiKey,
        dailyLimit: optionalInt(args, 'daily-limit', 1, 100_000) ?? DEFAULT_DAILY_LIMIT,
        confirmAbove: optionalInt(args, 'confirm-above', 1, 500) ?? DEFAULT_CONFIRM_ABOVE,
      });
      const closed = new Promise<void>((resolve) => {
        process.stdin.once('end', resolve);
        process.stdin.once('close', resolve);
      });
      await server.connect(new StdioServerTransport());
      io.err(`hafatra mcp: serving ${url} over stdio`);
      await closed;
      await server.close();
      return 0;
    },
  },
];
