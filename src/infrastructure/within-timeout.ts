/** A scrape never waits longer than this on a store: past it the last value is served and the source reads as down. */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;

/** Resolves the read's value, or undefined on an error or past SCRAPE_READ_TIMEOUT_MS: a scrape never fails on it. */
export function withinTimeout<T>(read: () => Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), SCRAPE_READ_TIMEOUT_MS);
    Promise.resolve()
      .then(read)
      .then(resolve, () => resolve(undefined))
      .finally(() => clearTimeout(timer));
  });
}
