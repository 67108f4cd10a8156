import { describe, expect, it } from 'vitest';
import { MESSAGE_FIELDS, MessageSchema } from '../../src/messages/message.js';
import { messageFromValues, type MessageValues } from '../../src/messages/message-values.js';

describe('a Message read from an array row', () => {
  const fields = Object.keys(MessageSchema.properties);
  const values = fields.map((f) => `value of ${f}`) as MessageValues;

  it('has every field of the schema, in its order, each from its position in MESSAGE_FIELDS', () => {
    const m = messageFromValues(values);
    expect(Object.keys(m)).toEqual(fields);
    expect(MESSAGE_FIELDS).toBe(fields.map((f) => `"${f}"`).join(', '));
    for (const f of fields) expect(m[f as keyof typeof m]).toBe(`value of ${f}`);
  });
});
