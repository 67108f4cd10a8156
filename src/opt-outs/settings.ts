import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Text } from '../schemas/schema-kit.js';
import { DEFAULT_START_WORDS, DEFAULT_STOP_WORDS, keywordsOf, MAX_WORD_LENGTH, MAX_WORDS, type Keywords } from './keywords.js';

/**
 * An organization's opt-out settings (migration 028), kept apart from the other settings of
 * src/orgs/org-store.ts: its stop and start words (null: the shipped lists) and the replies its
 * phones send to a number that opted out or back in (null: no reply).
 */
export interface OptOutSettings {
  orgId: string;
  defaultCountry: string;
  stopWords: string[] | null;
  startWords: string[] | null;
  stopReply: string | null;
  startReply: string | null;
}

export const keywordsOfSettings = (s: OptOutSettings): Keywords => keywordsOf(s.stopWords, s.startWords);

const WordList = Nullable(
  Type.Array(Text({ minLength: 1, maxLength: MAX_WORD_LENGTH }), {
    maxItems: MAX_WORDS,
    uniqueItems: true,
    errorMessage: `must be a list of up to ${MAX_WORDS} distinct words of at most ${MAX_WORD_LENGTH} characters, or null for the shipped list`,
  }),
);
const Reply = Nullable(Text({ minLength: 1, maxLength: 480, errorMessage: 'must be a text of 1 to 480 characters, or null for no reply' }));

/** PATCH /dashboard/v1/organization `optOut`: any part may be left out. */
export const OptOutSetting = Type.Object(
  { stopWords: Type.Optional(WordList), startWords: Type.Optional(WordList), stopReply: Type.Optional(Reply), startReply: Type.Optional(Reply) },
  { additionalProperties: false },
);
export type OptOutSetting = Static<typeof OptOutSetting>;

/** The settings as GET /dashboard/v1/organization shows them: the lists in force, and whether they are the shipped ones. */
export function optOutSettingsView(s: OptOutSettings) {
  return {
    stopWords: s.stopWords ?? [...DEFAULT_STOP_WORDS],
    startWords: s.startWords ?? [...DEFAULT_START_WORDS],
    wordsAreDefault: s.stopWords === null && s.startWords === null,
    stopReply: s.stopReply,
    startReply: s.startReply,
  };
}
