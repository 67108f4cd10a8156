import type * as BullMQ from 'bullmq';

let loading: Promise<typeof BullMQ> | undefined;

/**
 * BullMQ, imported when a process first queues or works a job rather than at start. An API
 * process only queues one for a received SMS, a webhook test or a delivery sent again, and BullMQ
 * with what it imports holds 15-19 MB of a process's memory (bench/README.md): an API that
 * serves senders and idle phones never pays it.
 */
export function loadBullmq(): Promise<typeof BullMQ> {
  loading ??= import('bullmq');
  return loading;
}
