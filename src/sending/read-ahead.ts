/** The outcome of a read started before its turn: its value, or the error it met. */
export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * A read started ahead of the point that needs it, so it runs beside the reads before that
 * point. Its failure is held for whoever reaches that point (unwrap throws it), and is never an
 * unhandled rejection when the request ends before (refused, or answered from a replay).
 */
export function readAhead<T>(read: Promise<T>): Promise<ReadOutcome<T>> {
  return read.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** The read's value, or its error thrown where the request needs it. */
export function unwrap<T>(outcome: ReadOutcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}
