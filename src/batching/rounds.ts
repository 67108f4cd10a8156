/**
 * Splits a batch into rounds in which each key appears at most once, keeping the order of a
 * key's items: a batched write of several changes to one row (a phone's `sending` then `sent`,
 * a socket's open then close) applies them in order, one statement per round. Returns indexes
 * into `items`.
 */
export function roundsByKey<T>(items: readonly T[], key: (item: T) => string): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const k = key(item);
    const round = seen.get(k) ?? 0;
    seen.set(k, round + 1);
    (rounds[round] ??= []).push(i);
  });
  return rounds;
}
