import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { FieldError } from './form-errors';
import { Field, Form, notify, useSubmit } from './ui';

/** The newest matches (at most 50) of a dashboard search, refetched when the text changes; null while loading or without a text. */
export function useSearch<T>(path: string, field: string, q: string, reloadKey = 0): T[] | null {
  const [rows, setRows] = useState<T[] | null>(null);
  useEffect(() => {
    setRows(null);
    if (!q) return;
    let gone = false;
    api.get<Record<string, T[]>>(path, { q }).then(
      (r) => !gone && setRows(r[field] ?? []),
      (err) => {
        if (gone) return;
        setRows([]);
        notify.error(err);
      },
    );
    return () => {
      gone = true;
    };
  }, [path, q, reloadKey]);
  return rows;
}

/** A search box: at least 3 characters, said under the box; empty clears the search. */
export function SearchForm(p: { q: string; label: string; hint: string; onSearch: (q: string) => void }) {
  const submit = useSubmit(async (f) => {
    const q = String(f.get('q') ?? '').trim();
    if (q !== '' && q.length < 3) throw new FieldError('q', 'Type at least 3 characters: part of a number, of the text, or an id.');
    p.onSearch(q);
  });
  return (
    <Form class="filters search" submit={submit} key={p.q}>
      <Field label={p.label} hint={p.hint}>
        {(id) => <input id={id} name="q" type="search" defaultValue={p.q} maxLength={200} />}
      </Field>
      <button type="submit" disabled={submit.busy}>
        Search
      </button>
    </Form>
  );
}
