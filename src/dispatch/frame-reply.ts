/** The server's answer to one client frame: an ack carrying what the frame asked for, or an error. */
export type FrameReply = { type: 'ack'; ref: string; [k: string]: unknown } | { type: 'error'; ref: string | null; code: string; message: string; retryAfterMs?: number };
