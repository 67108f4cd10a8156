import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HafatraApiError, HafatraConnectionError } from '../../clients/typescript/src/index.js';
import { MCP_SCOPES } from './scopes.js';
import { RailRefusal } from './send-rails.js';

const duration = (seconds: number) => (seconds >= 3600 ? `${Math.round(seconds / 360) / 10} hours` : seconds >= 60 ? `${Math.round(seconds / 60)} minutes` : `${seconds} seconds`);

/** What a refused or failed call means, written for the agent: what happened and what to do next. */
function explanation(error: unknown): string {
  if (error instanceof RailRefusal) return error.message;
  if (error instanceof HafatraConnectionError) {
    return `Hafatra could not be reached (${error.message}): tell the user the server is unreachable. If this was a send, it may or may not have been made: check list_messages before sending again.`;
  }
  if (!(error instanceof HafatraApiError)) throw error;
  const said = `Hafatra refused (${error.code}): ${error.message}.`;
  switch (error.code) {
    case 'rate_limited':
      return `${said} The organization's daily message limit, or this API key's request rate, is reached${error.retryAfterSeconds !== null ? `; it allows more in about ${duration(error.retryAfterSeconds)}` : ''}. Nothing was sent. Do not retry before then; tell the user.`;
    case 'no_device':
      return `${said} No phone of the organization can send now. Nothing was sent. Call list_phones to see why (offline, sending switched off, draining) and tell the user.`;
    case 'forbidden':
      return `${said} The API key given to hafatra mcp lacks a scope; it needs ${MCP_SCOPES.join(', ')}.`;
    case 'unauthorized':
      return `${said} The API key given to hafatra mcp (HAFATRA_API_KEY) is wrong, revoked or expired.`;
    case 'invalid_request':
      return `${said} ${error.field ? `Fix the argument ${error.field} and call again.` : 'Fix the arguments and call again.'}`;
    case 'not_found':
      return `${said} No such record in this organization; check the id.`;
    default:
      return `${said} (request ${error.requestId})`;
  }
}

export function refusal(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: explanation(error) }] };
}

export function result(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}
