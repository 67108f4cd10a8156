import { ApiError, describeError } from './api';
import { humanField, namedField, pathWords } from './field-words';

/** Where a form shows an error: under a field (by its input's name), or at the form's end. */
export interface FormErrors {
  fields: Record<string, string>;
  form: string | null;
}

/** An error the page finds itself about one field (`throw new FieldError('repeat', 'The two passwords differ.')`). */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const sentence = (s: string) => {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/** The words a person sees for an input: its label, or its group's legend. */
function labelOf(form: HTMLFormElement, el: Element): string | null {
  const id = el.getAttribute('id');
  const label = (id && form.querySelector(`label[for="${id}"]`)) || el.closest('fieldset')?.querySelector('legend');
  return label?.textContent?.trim() || null;
}

export function placeError(err: unknown, form: HTMLFormElement): FormErrors {
  if (err instanceof FieldError) return { fields: { [err.field]: sentence(err.message) }, form: null };
  // `url: must be…`, `carriers[1].prefixes[0]: …`: the server names the field first (src/schemas/validation.ts).
  const named = err instanceof ApiError && err.status === 400 ? namedField(err.message) : null;
  if (!named) return { fields: {}, form: describeError(err) };
  const { root, rest, text } = named;
  // The input may bear the field's own name (`url`), its last part (`optOut.stopWords`) or the whole path run together (`autoResend.attempts`: autoResendAttempts).
  const parts = [root, ...rest.split(/[.[\]]/).filter((x) => x && !/^\d+$/.test(x))];
  const names = [root, parts[parts.length - 1]!, parts.map((x, i) => (i === 0 ? x : x.charAt(0).toUpperCase() + x.slice(1))).join('')];
  const name = names.find((n) => form.querySelector(`[name="${n}"]`)) ?? root;
  const el = form.querySelector(`[name="${name}"]`);
  // Placed under the root's input: what inside it is at fault, in words ("Carrier 1, prefix 1"; "Range 2, from").
  const where = name === root && rest ? pathWords(/^\[/.test(rest) ? root + rest : rest) : '';
  if (el?.closest('.field')) return { fields: { [name]: where ? `${where}: ${text}${/[.!?]$/.test(text) ? '' : '.'}` : sentence(text) }, form: null };
  const label = el ? labelOf(form, el) : null;
  return { fields: {}, form: `${label ?? humanField(root)}${rest ? `, ${pathWords(rest).toLowerCase()}` : ''}: ${sentence(text)}` };
}
