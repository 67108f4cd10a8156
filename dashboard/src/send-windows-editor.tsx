import { useState } from 'preact/hooks';
import type { SendWindows } from './server-types';
import { FieldError } from './form-errors';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_NAMES: Record<(typeof DAYS)[number], string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
type Range = SendWindows['ranges'][number];

/** Every IANA zone the browser knows, the current value kept even when it does not list it. */
function zones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * Send windows chosen, not typed: a switch, the time zone from a list, and ranges of day boxes
 * and two times. The value goes to the form as JSON in a hidden input named `name`, read back
 * with readSendWindows; the server's errors about it show under the editor (Field).
 */
export function SendWindowsEditor(p: { id: string; name: string; value: SendWindows | null; disabled?: boolean; legend: string }) {
  const [on, setOn] = useState(p.value !== null);
  const [timeZone, setTimeZone] = useState(p.value?.timeZone ?? browserZone());
  const [ranges, setRanges] = useState<Range[]>(p.value?.ranges ?? [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' }]);
  const change = (i: number, r: Partial<Range>) => setRanges(ranges.map((x, j) => (j === i ? { ...x, ...r } : x)));
  const value = on ? JSON.stringify({ timeZone, ranges }) : '';
  return (
    <div class="windows-editor">
      <input type="hidden" name={p.name} value={value} />
      <label class="check">
        <input id={p.id} type="checkbox" checked={on} disabled={p.disabled} onChange={(e) => setOn(e.currentTarget.checked)} /> {p.legend}
      </label>
      {on && (
        <>
          <label class="inline">
            Time zone{' '}
            <select value={timeZone} disabled={p.disabled} onChange={(e) => setTimeZone(e.currentTarget.value)}>
              {zones(timeZone).map((z) => (
                <option value={z}>{z}</option>
              ))}
            </select>
          </label>
          {ranges.map((r, i) => (
            <fieldset class="window-range" data-testid="window-range">
              <legend>Range {i + 1}</legend>
              <div class="days">
                {DAYS.map((d) => (
                  <label class="check">
                    <input
                      type="checkbox"
                      disabled={p.disabled}
                      checked={r.days.includes(d)}
                      onChange={(e) => change(i, { days: DAYS.filter((x) => (x === d ? e.currentTarget.checked : r.days.includes(x))) })}
                    />{' '}
                    {DAY_NAMES[d]}
                  </label>
                ))}
              </div>
              <label class="inline">
                From <input type="time" required disabled={p.disabled} value={r.from} onInput={(e) => change(i, { from: e.currentTarget.value })} />
              </label>{' '}
              <label class="inline">
                to <input type="time" required disabled={p.disabled} value={r.to === '24:00' ? '00:00' : r.to} onInput={(e) => change(i, { to: e.currentTarget.value })} />
              </label>
              {r.to <= r.from && <span class="muted"> (runs past midnight)</span>}{' '}
              {ranges.length > 1 && (
                <button type="button" disabled={p.disabled} onClick={() => setRanges(ranges.filter((_, j) => j !== i))}>
                  Remove range {i + 1}
                </button>
              )}
            </fieldset>
          ))}
          <button type="button" disabled={p.disabled || ranges.length >= 14} onClick={() => setRanges([...ranges, { days: ['sat'], from: '09:00', to: '12:00' }])}>
            Add a range
          </button>
        </>
      )}
    </div>
  );
}

/** The editor's value from the submitted form: null when off; a range without a day is refused here, under the editor. */
export function readSendWindows(form: FormData, name: string): SendWindows | null {
  const raw = String(form.get(name) ?? '');
  if (!raw) return null;
  const w = JSON.parse(raw) as SendWindows;
  const empty = w.ranges.findIndex((r) => r.days.length === 0);
  if (empty >= 0) throw new FieldError(name, `Range ${empty + 1} has no day: tick at least one, or remove it.`);
  return w;
}
