import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('HAFATRA_MESSAGE_RETENTION_DAYS', () => {
  it('keeps messages for ever unless set, and reads a number of days', () => {
    expect(loadConfig({}).messageRetentionDays).toBeNull();
    expect(loadConfig({ HAFATRA_MESSAGE_RETENTION_DAYS: ' ' }).messageRetentionDays).toBeNull();
    expect(loadConfig({ HAFATRA_MESSAGE_RETENTION_DAYS: '90' }).messageRetentionDays).toBe(90);
  });

  it('refuses zero, a fraction or a word at start-up, naming the setting', () => {
    for (const bad of ['0', '1.5', 'ninety']) {
      expect(() => loadConfig({ HAFATRA_MESSAGE_RETENTION_DAYS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ HAFATRA_MESSAGE_RETENTION_DAYS: bad })).toThrow(/messageRetentionDays/);
    }
  });
});
