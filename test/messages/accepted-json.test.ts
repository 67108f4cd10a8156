import { describe, expect, it } from 'vitest';
import { acceptedMessagesJson } from '../../src/messages/accepted-json.js';
import { acceptedMessages, type SharedFields } from '../../src/messages/message.js';
import { newIds } from '../../src/ids/ids.js';

const base: SharedFields = {
  body: 'Your code is 482913.',
  segments: 1,
  encoding: 'gsm7',
  requestedDeviceId: null,
  simSubscriptionId: null,
  batchId: 'batch_01KQ3ZV8J5N6B9D0E1F2G3H4J5',
  resendOfId: null,
  createdAt: '2026-11-28T21:40:00.123Z',
  expiresAt: '2026-11-29T21:40:00.123Z',
  sendAt: null,
};

function recipientsOf(numbers: string[], optedOut: ReadonlySet<number> = new Set()) {
  const ids = newIds('message', numbers.length);
  return numbers.map((to, i) => (optedOut.has(i) ? { id: ids[i]!, to, failureCode: 'opted_out' } : { id: ids[i]!, to }));
}

const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+26134${String(1_000_000 + i).padStart(7, '0')}`);

describe('acceptedMessagesJson: the 202 messages as JSON.stringify writes them', () => {
  it.each<[string, SharedFields, ReturnType<typeof recipientsOf>]>([
    ['500 queued messages', base, recipientsOf(numbers(500))],
    ['one message', base, recipientsOf(numbers(1))],
    ['no message', base, []],
    ['opted-out recipients among queued ones (created failed)', base, recipientsOf(numbers(7), new Set([0, 3, 6]))],
    ['every recipient opted out', base, recipientsOf(numbers(3), new Set([0, 1, 2]))],
    ['a scheduled send (accepted, with sendAt)', { ...base, sendAt: '2026-11-30T06:00:00.000Z' }, recipientsOf(numbers(4), new Set([2]))],
    ['an answer stored before scheduled sends (no sendAt)', (({ sendAt: _s, ...f }) => f)(base), recipientsOf(numbers(2))],
    [
      'a pinned phone and SIM, a resend',
      { ...base, requestedDeviceId: 'dev_01KQ3ZV8J5N6B9D0E1F2G3H4J5', simSubscriptionId: 2, resendOfId: 'msg_01KQ3ZV8J5N6B9D0E1F2G3H4J5' },
      recipientsOf(numbers(3)),
    ],
    [
      'a body JSON must escape: quotes, backslash, control characters, line breaks, emoji, U+2028',
      { ...base, body: 'Say "hi"\\ \n\r\t\u0001 😀 ж \u2028 é', encoding: 'ucs2', segments: 1 },
      recipientsOf(numbers(3)),
    ],
    ['a lone surrogate in the body', { ...base, body: 'a\ud800b' }, recipientsOf(numbers(2))],
    [
      'ids and numbers that are not plain (written as JSON.stringify does)',
      base,
      [
        { id: 'msg_"odd"', to: '+261 34\\00' },
        { id: 'msg_ж', to: '+2613400😀' },
      ],
    ],
  ])('%s', (_name, fields, recipients) => {
    const json = acceptedMessagesJson(fields, recipients);
    expect(json).toBe(JSON.stringify(acceptedMessages(fields, recipients)));
    expect(JSON.parse(json)).toEqual(acceptedMessages(fields, recipients));
  });

  it('wraps the array in what it is given: the whole 202 body', () => {
    const recipients = recipientsOf(numbers(3), new Set([1]));
    const json = acceptedMessagesJson(base, recipients, `{"batchId":${JSON.stringify(base.batchId)},"messages":`, '}');
    expect(json).toBe(JSON.stringify({ batchId: base.batchId, messages: acceptedMessages(base, recipients) }));
  });
});
