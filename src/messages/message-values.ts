import type { Message } from './message.js';

/** A row of a Message's fields read as an array (pg's `rowMode: 'array'`), in MESSAGE_FIELDS order. */
export type MessageValues = Message[keyof Message][];

/**
 * The Message a row of values holds. pg builds each object row by copying an empty one and
 * storing each column under its name, a lookup by name per field that showed in the API's CPU
 * per list page; an array row and this literal cost 5–8% less of it (bench/README.md). The
 * positions follow MESSAGE_FIELDS, the schema's order (test/messages/message-values.test.ts).
 */
export const messageFromValues = (r: MessageValues): Message =>
  ({
    id: r[0],
    to: r[1],
    body: r[2],
    status: r[3],
    segments: r[4],
    encoding: r[5],
    deviceId: r[6],
    requestedDeviceId: r[7],
    simSubscriptionId: r[8],
    batchId: r[9],
    resendOfId: r[10],
    failureCode: r[11],
    createdAt: r[12],
    updatedAt: r[13],
    claimedAt: r[14],
    sentAt: r[15],
    deliveredAt: r[16],
    failedAt: r[17],
    expiresAt: r[18],
    sendAt: r[19],
  }) as Message;
