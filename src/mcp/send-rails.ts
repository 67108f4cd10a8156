/**
 * The safety rails of the send tool, checked before anything is sent: a daily budget of
 * recipients for this MCP server (its own, under the organization's daily limit, which the API
 * enforces), an explicit confirmation for a send to more than a few recipients, and the
 * organization's opt-out list.
 */
export interface RailSettings {
  /** Recipients this process may send to per UTC day. */
  dailyLimit: number;
  /** Above this many recipients, the call must repeat the count in `confirmRecipients`. */
  confirmAbove: number;
}

/** A send the rails refused, with what the agent should do about it. */
export class RailRefusal extends Error {
  override name = 'RailRefusal';
}

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

export class DailyBudget {
  private day = '';
  private used = 0;
  constructor(
    private readonly limit: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Takes `count` recipients from today's budget, or refuses without taking any. */
  take(count: number): void {
    const today = utcDay(this.now());
    if (today !== this.day) {
      this.day = today;
      this.used = 0;
    }
    if (this.used + count > this.limit) {
      const left = this.limit - this.used;
      throw new RailRefusal(
        `Refused: this MCP server may send to ${this.limit} recipients per day (UTC) and ${left} remain today; this send has ${count}. Do not retry today; ask the user to raise --daily-limit (HAFATRA_MCP_DAILY_LIMIT) if more is intended.`,
      );
    }
    this.used += count;
  }

  /** Gives back recipients the API did not accept. */
  giveBack(count: number): void {
    this.used = Math.max(0, this.used - count);
  }
}

export function checkConfirmation(count: number, confirmRecipients: number | undefined, settings: RailSettings): void {
  if (count <= settings.confirmAbove || confirmRecipients === count) return;
  throw new RailRefusal(
    confirmRecipients === undefined
      ? `Refused: this send has ${count} recipients, more than ${settings.confirmAbove}. Show the user the recipient count and the message, and only once they agree call send_sms again with confirmRecipients: ${count}.`
      : `Refused: confirmRecipients is ${confirmRecipients} but this send has ${count} recipients. Check the list with the user, then pass confirmRecipients: ${count}.`,
  );
}

export function checkOptOuts(recipients: string[], optedOut: ReadonlySet<string>): void {
  const blocked = recipients.filter((r) => optedOut.has(r));
  if (blocked.length === 0) return;
  throw new RailRefusal(
    `Refused: ${blocked.join(', ')} opted out of messages from this organization (the opt-out list). Nothing was sent. Remove ${blocked.length === 1 ? 'this number' : 'these numbers'} from the recipients; never send to an opted-out number.`,
  );
}
