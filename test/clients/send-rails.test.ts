import { describe, expect, it } from 'vitest';
import { DailyBudget, RailRefusal, checkConfirmation, checkOptOuts } from '../../src/mcp/send-rails.js';

/** The MCP send tool's rails on their own: the budget's day is the UTC day, and a refusal takes nothing. */
describe('send rails', () => {
  it('counts recipients per UTC day, refuses past the limit without taking any, and starts again the next day', () => {
    const clock = { now: new Date('2026-11-27T23:59:00Z') };
    const budget = new DailyBudget(5, () => clock.now);
    budget.take(3);
    expect(() => budget.take(3)).toThrow(RailRefusal);
    budget.take(2);
    expect(() => budget.take(1)).toThrow(/0 remain today/);
    budget.giveBack(2);
    budget.take(2);
    clock.now = new Date('2026-11-28T00:00:00Z');
    budget.take(5);
    expect(() => budget.take(1)).toThrow(/5 recipients per day/);
  });

  it('asks for the exact count above the threshold, and names every opted-out recipient', () => {
    expect(() => checkConfirmation(10, undefined, { dailyLimit: 100, confirmAbove: 10 })).not.toThrow();
    expect(() => checkConfirmation(11, undefined, { dailyLimit: 100, confirmAbove: 10 })).toThrow(/confirmRecipients: 11/);
    expect(() => checkConfirmation(11, 11, { dailyLimit: 100, confirmAbove: 10 })).not.toThrow();
    expect(() => checkOptOuts(['+261340000001', '+261340000002', '+261340000003'], new Set(['+261340000002', '+261340000003']))).toThrow(/\+261340000002, \+261340000003 opted out.*these numbers/);
    expect(() => checkOptOuts(['+261340000001'], new Set(['+261340000002']))).not.toThrow();
  });
});
