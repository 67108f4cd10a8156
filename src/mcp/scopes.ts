/**
 * The API-key scopes `hafatra mcp` needs, and no more: it sends and reads messages, reads received
 * SMS, mobile-money records and phones, and reads the opt-out list to refuse a send before it is
 * made. It never writes phones, webhooks or opt-outs (docs/clients.md).
 */
export const MCP_SCOPES = ['messages:send', 'messages:read', 'incoming:read', 'mobile-money:read', 'devices:read', 'opt-outs:read'] as const;
