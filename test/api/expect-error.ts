import { expect } from 'vitest';
import type { TestApp, TestResponse } from '../support/harness.js';

/**
 * Asserts the spec's error contract: the status, `{error: {code, message, requestId}}` with three
 * non-empty strings, and the same request id in the x-request-id header.
 */
export function expectError(res: TestResponse, status: number, code: string, messageMatch?: RegExp | string): void {
  expect({ status: res.status, code: res.body?.error?.code }, JSON.stringify(res.body)).toEqual({ status, code });
  const { message, requestId } = res.body.error;
  expect(typeof message).toBe('string');
  expect(message.length).toBeGreaterThan(0);
  expect(typeof requestId).toBe('string');
  expect(requestId.length).toBeGreaterThan(0);
  expect(res.headers.get('x-request-id')).toBe(requestId);
  expect(Object.keys(res.body)).toEqual(['error']);
  if (messageMatch !== undefined) expect(message).toMatch(messageMatch);
}

/** Rows of one organization in a table that has org_id: for "nothing was written" checks. */
export async function countRows(app: TestApp, table: 'messages' | 'batches', orgId: string): Promise<number> {
  const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [orgId]);
  return rows[0].n as number;
}
