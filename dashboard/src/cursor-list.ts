import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { notify } from './ui';

/**
 * A keyset-paged list (`nextCursor`): the cursors of the pages already seen make "newer" work;
 * reload() refetches the page on screen (live updates) without moving.
 */
export function useCursorList<T>(path: string, field: string, filters: Record<string, string>, limit = 50) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [stack, setStack] = useState<string[]>([]);
  const key = JSON.stringify(filters);
  const before = stack[stack.length - 1];
  const load = useCallback(async () => {
    try {
      const page = await api.get<Record<string, unknown>>(path, { ...filters, limit, before });
      setRows(page[field] as T[]);
      setNext((page.nextCursor as string | null) ?? null);
    } catch (err) {
      setRows([]);
      notify.error(err);
    }
  }, [path, key, before]);
  useEffect(() => setStack([]), [path, key]);
  useEffect(() => {
    void load();
  }, [load]);
  return {
    rows,
    next,
    hasPrevious: stack.length > 0,
    goNext: () => next && setStack((s) => [...s, next]),
    goPrevious: () => setStack((s) => s.slice(0, -1)),
    reload: load,
  };
}
