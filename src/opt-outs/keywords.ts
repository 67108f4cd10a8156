/**
 * Stop and start words: a received SMS whose whole text is one of them opts its sender out of (or
 * back into) the organization's sends. The text and the words are compared as `keywordForm`
 * makes them, so "STOP", " stop ", "Stop." and "arrêt!" all match STOP or ARRET.
 */

/** The shipped lists, used while an organization keeps its own list NULL (migration 028). */
export const DEFAULT_STOP_WORDS: readonly string[] = ['STOP', 'ARRET', 'ARRÊT', 'DESABONNER', 'UNSUBSCRIBE'];
export const DEFAULT_START_WORDS: readonly string[] = ['START'];

/** The longest word a list may hold; a longer SMS can be no keyword, so it is not compared. */
export const MAX_WORD_LENGTH = 32;
export const MAX_WORDS = 20;

/**
 * The form compared: accents removed (NFD, combining marks dropped), upper case, leading and
 * trailing white space and punctuation removed, inner white space as one space.
 */
export function keywordForm(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .replace(/\s+/g, ' ');
}

export type KeywordAction = 'stop' | 'start';

export interface Keywords {
  stop: ReadonlySet<string>;
  start: ReadonlySet<string>;
}

/** An organization's words (null: the shipped list) in the compared form. */
export function keywordsOf(stopWords: readonly string[] | null, startWords: readonly string[] | null): Keywords {
  return {
    stop: new Set((stopWords ?? DEFAULT_STOP_WORDS).map(keywordForm)),
    start: new Set((startWords ?? DEFAULT_START_WORDS).map(keywordForm)),
  };
}

/** Only a text this short can be a keyword: the cheap test before the organization's lists are read. */
export const mayBeKeyword = (text: string | null): text is string => text !== null && text.length <= MAX_WORD_LENGTH * 2;

export function keywordAction(text: string, words: Keywords): KeywordAction | null {
  const form = keywordForm(text);
  if (form === '') return null;
  if (words.stop.has(form)) return 'stop';
  if (words.start.has(form)) return 'start';
  return null;
}

/** Why a list cannot be saved (a word empty once compared, or in both lists), or null. */
export function wordsProblem(stopWords: readonly string[] | null | undefined, startWords: readonly string[] | null | undefined, current: Keywords): string | null {
  for (const [field, list] of [
    ['stopWords', stopWords],
    ['startWords', startWords],
  ] as const) {
    const empty = (list ?? []).find((w) => keywordForm(w) === '');
    if (empty !== undefined) return `optOut.${field}: ${JSON.stringify(empty)} has no letter or digit`;
  }
  const stop = stopWords === undefined ? current.stop : keywordsOf(stopWords, null).stop;
  const start = startWords === undefined ? current.start : keywordsOf(null, startWords).start;
  const both = [...stop].find((w) => start.has(w));
  return both === undefined ? null : `optOut: ${both} cannot be both a stop word and a start word`;
}
