import { Type } from '@sinclair/typebox';
import { Nullable, Text } from '../schemas/schema-kit.js';
import { PageQuery } from '../http/pagination.js';
import { OptOutSchema } from './opt-out-row.js';

const NumberField = Text({ minLength: 1, maxLength: 32, errorMessage: 'must be a phone number of at most 32 characters' });

export const ListOptOutsQuery = Type.Object({
  /** Only this number's entry, read as POST /v1/messages reads a recipient (default country). */
  number: Type.Optional(NumberField),
  ...PageQuery,
});

export const AddOptOutBody = Type.Object(
  {
    number: NumberField,
    reason: Type.Optional(Nullable(Text({ maxLength: 200, errorMessage: 'must be a text of at most 200 characters, or null' }))),
  },
  { additionalProperties: false },
);

export const OptOutPageSchema = Type.Object({ optOuts: Type.Array(OptOutSchema), nextCursor: Nullable(Type.String()) });
