import { describe, expect, it } from 'vitest';
import { encodeOpenTimes, openIntervals, type SendWindows } from '../../src/send-windows/windows.js';

const iso = (list: [number, number][]) => list.map(([s, e]) => `${new Date(s).toISOString()} ${new Date(e).toISOString()}`);
const ny = (days: string[], from: string, to: string): SendWindows => ({ timeZone: 'America/New_York', ranges: [{ days: days as SendWindows['ranges'][number]['days'], from, to }] });
const from = (date: string) => Date.parse(`${date}T12:00:00Z`);
const DAY = 86_400_000;

describe('the open times of a window set', () => {
  it('reads a time the clocks skipped as the time they moved to, and a time they passed twice as the first', () => {
    // 9 March 2025: 02:00 EST became 03:00 EDT. 2 November 2025: 02:00 EDT became 01:00 EST.
    expect(iso(openIntervals(ny(['sun'], '02:30', '04:00'), from('2025-03-08'), from('2025-03-08') + 2 * DAY))).toEqual(['2025-03-09T07:30:00.000Z 2025-03-09T08:00:00.000Z']);
    expect(iso(openIntervals(ny(['sun'], '01:30', '03:00'), from('2025-11-01'), from('2025-11-01') + 2 * DAY))).toEqual(['2025-11-02T05:30:00.000Z 2025-11-02T08:00:00.000Z']);
  });

  it('joins a night that ends at 24:00 to the morning that starts at 00:00', () => {
    const w: SendWindows = {
      timeZone: 'UTC',
      ranges: [
        { days: ['mon'], from: '22:00', to: '24:00' },
        { days: ['tue'], from: '00:00', to: '06:00' },
      ],
    };
    expect(iso(openIntervals(w, Date.parse('2025-12-01T00:00:00Z'), Date.parse('2025-12-03T00:00:00Z')))).toEqual(['2025-12-01T22:00:00.000Z 2025-12-02T06:00:00.000Z']);
  });

  it("mirrors, for a phone, only the times both its organization's windows and its own are open", () => {
    const now = Date.parse('2025-12-01T00:00:00Z'); // a Monday
    const org: SendWindows = { timeZone: 'UTC', ranges: [{ days: ['mon'], from: '08:00', to: '20:00' }] };
    const own: SendWindows = { timeZone: 'Indian/Antananarivo', ranges: [{ days: ['mon'], from: '22:00', to: '02:00' }] }; // 19:00 to 23:00 UTC
    expect(encodeOpenTimes([null, null], now)).toBe('');
    expect(encodeOpenTimes([org, own], now)).toBe(
      `${now - 3_600_000}-${now + 8 * DAY}|${Date.parse('2025-12-01T19:00:00Z')}-${Date.parse('2025-12-01T20:00:00Z')},${Date.parse('2025-12-08T19:00:00Z')}-${Date.parse('2025-12-08T20:00:00Z')}`,
    );
  });
});
