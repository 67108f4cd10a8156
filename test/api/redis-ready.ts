import type { TestApp } from '../support/harness.js';

/**
 * Resolves once the app's Redis connection is ready. The API starts listening without waiting
 * for it (its client does not queue commands), so a request sent by a test right after start,
 * under load, can get a 500 instead of an answer.
 */
export async function redisReady(app: TestApp): Promise<void> {
  if (app.ctx.redis.status === 'ready') return;
  await new Promise<void>((resolve) => app.ctx.redis.once('ready', () => resolve()));
}
