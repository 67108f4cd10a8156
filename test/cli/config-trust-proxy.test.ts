import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('HAFATRA_TRUST_PROXY', () => {
  it('is off unless set, and reads true or false in any case', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ HAFATRA_TRUST_PROXY: 'TRUE' }).trustProxy).toBe(true);
    expect(loadConfig({ HAFATRA_TRUST_PROXY: ' false ' }).trustProxy).toBe(false);
  });

  it('refuses anything else at start-up, naming the setting', () => {
    expect(() => loadConfig({ HAFATRA_TRUST_PROXY: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ HAFATRA_TRUST_PROXY: 'yes' })).toThrow(/trustProxy/);
  });
});
