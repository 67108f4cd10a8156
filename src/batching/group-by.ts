/**
 * The items by `key`, each group in the items' order; the groups in the order their keys first
 * appear. `sameGroup`, when given, says an item goes with the one before it without making its
 * key: for items that come in runs (a send's 500 messages share their target), a key a run.
 */
export function groupBy<T>(items: readonly T[], key: (item: T) => string, sameGroup?: (previous: T, item: T) => boolean): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  let group: T[] | undefined;
  let previous: T | undefined;
  for (const item of items) {
    if (group === undefined || sameGroup === undefined || !sameGroup(previous as T, item)) {
      const k = key(item);
      group = groups.get(k);
      if (group === undefined) groups.set(k, (group = []));
    }
    group.push(item);
    previous = item;
  }
  return groups;
}

/**
 * One call per group of items (`run` answers each of its items, in order), all at once; the
 * answers come back in the items' order. For batches whose items must go out by organization:
 * one organization's Redis keys share a cluster slot.
 */
export async function answerByGroup<T, R>(items: readonly T[], key: (item: T) => string, run: (key: string, group: T[]) => Promise<R[]>): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  const indexes = groupBy(
    items.map((_, i) => i),
    (i) => key(items[i]!),
  );
  await Promise.all(
    [...indexes].map(async ([k, group]) => {
      const replies = await run(
        k,
        group.map((i) => items[i]!),
      );
      group.forEach((i, j) => {
        answers[i] = replies[j]!;
      });
    }),
  );
  return answers;
}
