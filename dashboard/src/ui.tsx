import { createContext, type ComponentChildren, type TargetedEvent } from 'preact';
import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api';
import { placeError, type FormErrors } from './form-errors';

/* Notices: every action ends in a sentence, in a live region screen readers announce. */
type Notice = { id: number; kind: 'success' | 'error'; text: string };
let push: (n: Notice) => void = () => undefined;
let nextId = 1;
let clear: (kind?: Notice['kind']) => void = () => undefined;
export const notify = {
  /** Old notices go once the person moved on (signed in, say). */
  clear: () => clear(),
  /** Errors go when the page changes: they were about what the person left. */
  clearErrors: () => clear('error'),
  success: (text: string) => push({ id: nextId++, kind: 'success', text }),
  error: (err: unknown) => push({ id: nextId++, kind: 'error', text: typeof err === 'string' ? err : describeError(err) }),
};
export function Notices() {
  const [items, setItems] = useState<Notice[]>([]);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    push = (n) => {
      // A success says the person fixed what an older error was about: that error would now lie.
      setItems((l) => [...(n.kind === 'success' ? l.filter((x) => x.kind === 'success') : l).slice(-3), n]);
      setTimeout(() => setItems((l) => l.filter((x) => x.id !== n.id)), n.kind === 'error' ? 10_000 : 5000);
    };
    clear = (kind) => setItems((l) => (kind ? l.filter((x) => x.kind !== kind) : []));
  }, []);
  // A popover sits in the top layer: shown again after each notice, it stays above an open dialog and its backdrop.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el?.showPopover) return;
    if (el.matches(':popover-open')) el.hidePopover();
    if (items.length > 0) el.showPopover();
  }, [items]);
  return (
    <div ref={ref} class="notices" role="status" aria-live="polite" popover="manual">
      {items.map((n) => (
        <p key={n.id} class={`notice ${n.kind}`}>
          {n.text}
        </p>
      ))}
    </div>
  );
}

export function Page(p: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${p.title} · Hafatra`;
  }, [p.title]);
  return (
    <section class="page">
      <header class="page-head">
        <h1 tabIndex={-1} id="page-title">
          {p.title}
        </h1>
        {p.actions && <div class="actions">{p.actions}</div>}
      </header>
      {p.children}
    </section>
  );
}

export function Empty(p: { children: ComponentChildren }) {
  return <div class="empty">{p.children}</div>;
}

export function Loading() {
  return (
    <p class="muted" aria-busy="true">
      Loading…
    </p>
  );
}

export function Table<T>(p: {
  rows: T[] | null;
  columns: { label: string; cell: (r: T) => ComponentChildren; class?: string }[];
  empty: ComponentChildren;
  rowKey: (r: T) => string;
  caption: string;
}) {
  if (p.rows === null) return <Loading />;
  if (p.rows.length === 0) return <Empty>{p.empty}</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{p.caption}</caption>
        <thead>
          <tr>
            {p.columns.map((c) => (
              <th scope="col" class={c.class}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr key={p.rowKey(r)}>
              {p.columns.map((c) => (
                <td class={c.class} data-label={c.label}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Pager(p: { hasPrevious: boolean; next: string | null; onPrevious: () => void; onNext: () => void }) {
  if (!p.hasPrevious && !p.next) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={!p.hasPrevious} onClick={p.onPrevious}>
        ← Newer
      </button>
      <button type="button" disabled={!p.next} onClick={p.onNext}>
        Older →
      </button>
    </nav>
  );
}

const NO_ERRORS: FormErrors = { fields: {}, form: null };
const FormErrorsContext = createContext<FormErrors>(NO_ERRORS);

/** A labelled input; an error of its form about it is shown under it, in words, until it is edited. */
export function Field(p: { label: string; hint?: string; children: (id: string) => ComponentChildren }) {
  const id = useRef(`f${Math.random().toString(36).slice(2, 9)}`).current;
  const errors = useContext(FormErrorsContext);
  const ref = useRef<HTMLDivElement>(null);
  const name = ref.current?.querySelector('[name]')?.getAttribute('name');
  const error = name ? errors.fields[name] : undefined;
  useLayoutEffect(() => {
    const input = ref.current?.querySelector('[name]');
    if (!input) return;
    if (error) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', `${id}-error`);
    } else {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }, [error]);
  return (
    <div class={`field${error ? ' invalid' : ''}`} ref={ref}>
      <label for={id}>{p.label}</label>
      {p.children(id)}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {p.hint && <p class="hint">{p.hint}</p>}
    </div>
  );
}

/** A form whose errors are shown where they belong: under their field, or at its end (inside a dialog, never behind it). */
export function Form(p: { submit: ReturnType<typeof useSubmit>; children: ComponentChildren } & { class?: string; id?: string; key?: string }) {
  const { submit, children, ...rest } = p;
  return (
    <form {...rest} onSubmit={submit.onSubmit} onInput={submit.onInput} onChange={submit.onInput}>
      <FormErrorsContext.Provider value={submit.errors}>
        {children}
        {submit.errors.form && (
          <p class="form-error" role="alert">
            {submit.errors.form}
          </p>
        )}
      </FormErrorsContext.Provider>
    </form>
  );
}

/** A button that runs an action, shows it is busy, and reports the outcome in words. */
export function Action(p: { run: () => Promise<unknown>; done?: string; children: ComponentChildren; kind?: 'primary' | 'danger' | 'plain'; confirm?: string; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const go = async () => {
    setAsking(false);
    setBusy(true);
    try {
      await p.run();
      if (p.done) notify.success(p.done);
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class={p.kind ?? 'plain'} disabled={busy || p.disabled} aria-busy={busy} onClick={() => (p.confirm ? setAsking(true) : go())}>
        {p.children}
      </button>
      {asking && <Confirm text={p.confirm!} action={p.children} onYes={go} onNo={() => setAsking(false)} danger={p.kind === 'danger'} />}
    </>
  );
}

/** A modal question: focus moves into it and stays there; Escape answers no. */
export function Confirm(p: { text: string; action: ComponentChildren; onYes: () => void; onNo: () => void; danger?: boolean }) {
  return (
    <Dialog title="Are you sure?" onClose={p.onNo}>
      <p>{p.text}</p>
      <div class="actions">
        <button type="button" class={p.danger ? 'danger' : 'primary'} onClick={p.onYes}>
          {p.action}
        </button>
        <button type="button" onClick={p.onNo}>
          Keep things as they are
        </button>
      </div>
    </Dialog>
  );
}

export function Dialog(p: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    const before = document.activeElement as HTMLElement | null;
    d.showModal();
    return () => before?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        p.onClose();
      }}
    >
      <h2 id="dialog-title">{p.title}</h2>
      {p.children}
    </dialog>
  );
}

export function CopyButton(p: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(p.text);
          setCopied(true);
          notify.success('Copied to the clipboard.');
        } catch {
          notify.error('The browser did not allow copying: select the text and copy it yourself.');
        }
      }}
    >
      {copied ? 'Copied' : (p.label ?? 'Copy')}
    </button>
  );
}

/** A secret shown once (an API key, a webhook secret, a link): said plainly, with a copy button. */
export function ShownOnce(p: { label: string; value: string; onDone: () => void }) {
  return (
    <section class="shown-once" aria-label={p.label}>
      <p>
        <strong>{p.label}</strong> — copy it now: it will not be shown again.
      </p>
      <code class="secret" data-testid="secret">
        {p.value}
      </code>
      <div class="actions">
        <CopyButton text={p.value} />
        <button type="button" onClick={p.onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}

const STATUS_TONE: Record<string, string> = {
  delivered: 'good',
  sent: 'good',
  online: 'good',
  succeeded: 'good',
  matched: 'good',
  reviewed: 'good',
  failed: 'bad',
  expired: 'bad',
  dead: 'bad',
  revoked: 'bad',
  unknown: 'warn',
  stale: 'warn',
  ambiguous: 'warn',
  cancelled: 'muted',
  never_seen: 'muted',
};
export function Badge(p: { value: string }) {
  return (
    <span class={`badge ${STATUS_TONE[p.value] ?? 'info'}`} data-status={p.value}>
      {p.value.replace(/_/g, ' ')}
    </span>
  );
}

export function Time(p: { at: string | null | undefined }) {
  if (!p.at) return <span class="muted">—</span>;
  const d = new Date(p.at);
  const s = Math.round((Date.now() - d.getTime()) / 1000);
  const rel = Math.abs(s) < 60 ? 'just now' : Math.abs(s) < 3600 ? `${Math.round(s / 60)} min ago` : Math.abs(s) < 86400 ? `${Math.round(s / 3600)} h ago` : d.toLocaleDateString();
  return (
    <time dateTime={p.at} title={d.toLocaleString()}>
      {s < 0 ? d.toLocaleString() : rel}
    </time>
  );
}

export type Submit = TargetedEvent<HTMLFormElement, SubmitEvent>;

/**
 * A form's submit: prevents the page load, keeps the button busy, and places an error where it
 * belongs (see Form). An error about a field clears when that field is edited; every error
 * clears when the form succeeds.
 */
export function useSubmit(run: (form: FormData) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const onSubmit = async (e: Submit) => {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    try {
      await run(new FormData(form));
      setErrors(NO_ERRORS);
    } catch (err) {
      const placed = placeError(err, form);
      setErrors(placed);
      const first = Object.keys(placed.fields)[0];
      if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus?.();
    } finally {
      setBusy(false);
    }
  };
  const onInput = (e: Event) => {
    const name = (e.target as HTMLInputElement | null)?.name;
    if (name && errors.fields[name]) {
      const { [name]: _gone, ...fields } = errors.fields;
      setErrors({ fields, form: errors.form });
    }
  };
  return { busy, onSubmit, onInput, errors };
}

/** A dialog form's buttons: its submit (busy while it runs, or until the form can be sent) and Cancel. */
export function SubmitOrCancel(p: { label: string; busy: boolean; onCancel: () => void }) {
  return (
    <div class="actions">
      <button class="primary" type="submit" disabled={p.busy}>
        {p.label}
      </button>
      <button type="button" onClick={p.onCancel}>
        Cancel
      </button>
    </div>
  );
}
