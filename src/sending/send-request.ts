import type { Message } from '../messages/message.js';
import type { SendMessagesBody } from './schemas.js';

/** What a send answers (202), and what a replay answers again. */
export interface SendResult {
  batchId: string;
  messages: Message[];
}

export interface SendRequest extends SendMessagesBody {
  resendOfId?: string;
  /** A member sent it from the dashboard: the timeline's first entry says `member`, not `api`. */
  byMember?: boolean;
  /** An automatic resend of resendOfId (src/sending/auto-resend): what the chain carries on. */
  automatic?: AutomaticResend;
  /**
   * The organization's reply to a stop or start word (src/sending/opt-out-replies.ts), written as a
   * system send; the reply to a stop is the one send the opt-out list lets through.
   */
  optOutReply?: 'stop' | 'start';
}

export interface AutomaticResend {
  /** The automatic resends the new message may still have (one fewer than the failed one). */
  resendsLeft: number;
  /** The failed message's expiry: a resend does not outlive the request it carries. */
  expiresAt: Date;
  /** The phone it failed on, which takes the resend only after the others had their chance. */
  avoid: { deviceId: string; until: number } | null;
}
