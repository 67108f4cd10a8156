/**
 * Send bodies for the bench: 500 distinct valid Malagasy mobile numbers per request (+26134…,
 * the MVola operator prefix), so every recipient becomes its own message.
 */
export const RECIPIENTS_PER_POST = 500;

export function recipients(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => `+26134${String(1_000_000 + offset + i).slice(-7)}`);
}

export function sendBody(count = RECIPIENTS_PER_POST, offset = 0): string {
  return JSON.stringify({ to: recipients(count, offset), body: 'Hafatra bench: your code is 482913.' });
}
