import type { DispatchQueue } from '../dispatch-queue/dispatch-queue.js';
import type { ParseQueueProducer } from './parse-queue.js';
import type { SerialLane } from '../batching/serial-lane.js';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import type { MessageChanges } from '../messages/detail-cache/message-changes.js';

/** What every domain service is built from: one per process, composed by app/runtime.ts. */
export interface AppContext extends Infrastructure {
  /** The Redis dispatch queues, with this process's claim batching and the phones it holds. */
  dispatch: DispatchQueue;
  /** Received SMS handed to the worker's mobile-money reader. */
  parseQueue: ParseQueueProducer;
  /** Automatic resends of failures phones reported, made off the report path. */
  resends: SerialLane<string>;
  /** Where every committed message change is told: the caches of message bodies (src/messages/detail-cache/). */
  changes: MessageChanges;
}
