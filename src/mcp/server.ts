import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Hafatra } from '../../clients/typescript/src/index.js';
import { packageVersion } from '../package/version.js';
import { registerReadTools } from './read-tools.js';
import { registerSendTool } from './send-tool.js';
import { DailyBudget, type RailSettings } from './send-rails.js';

export interface McpSettings extends RailSettings {
  url: string;
  apiKey: string;
}

/** The MCP server of `hafatra mcp`: Hafatra's API through the TypeScript client, as tools for an agent. */
export function createMcpServer(settings: McpSettings): McpServer {
  // A rate limit longer than a few seconds is explained to the agent rather than waited out.
  const client = new Hafatra({ baseUrl: settings.url, apiKey: settings.apiKey, maxDelayMs: 5_000, timeoutMs: 15_000 });
  const server = new McpServer({ name: 'hafatra', version: packageVersion });
  registerSendTool(server, client, settings, new DailyBudget(settings.dailyLimit));
  registerReadTools(server, client);
  return server;
}
