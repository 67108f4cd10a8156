import { UsageError, printObject, requireString, type Command, type CommandArgs, type CommandIo } from '../command.js';
import { findOrganization } from '../../orgs/sql/find-organization.js';
import { reparseStoredSms } from '../../mobile-money/reparse.js';
import { reviewEvent } from '../../mobile-money/sql/review-event.js';

function sinceFrom(args: CommandArgs): Date | undefined {
  const v = args.values.since;
  if (v === undefined) return undefined;
  const at = typeof v === 'string' ? new Date(v) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw new UsageError('--since must be a date, e.g. 2025-01-31 or 2025-01-31T08:00:00Z');
  return at;
}

/** `\r1200/5000` on a terminal; one line per batch otherwise, so logs stay readable. */
function progressPrinter(io: CommandIo): (done: number, total: number) => void {
  if (process.stderr.isTTY) return (done, total) => void process.stderr.write(`\r${done}/${total}${done === total ? '\n' : ''}`);
  return (done, total) => io.err(`${done}/${total}`);
}

export const mobileMoneyCommands: Command[] = [
  {
    path: ['mobile-money', 'reparse'],
    summary: 'Read stored SMS again after the templates changed (bodies already purged are skipped)',
    usage: 'hafatra mobile-money reparse [--org ORG] [--since DATE] [--json]',
    options: { org: { type: 'string' }, since: { type: 'string' } },
    async run(args, io, services) {
      const since = sinceFrom(args);
      const ctx = await services();
      let orgId: string | undefined;
      if (typeof args.values.org === 'string') {
        const org = await findOrganization(ctx.db, args.values.org);
        if (!org) throw new UsageError(`no organization ${args.values.org}`);
        orgId = org.id;
      }
      const summary = await reparseStoredSms(ctx, { orgId, since, onProgress: progressPrinter(io) });
      if (args.json) io.out(JSON.stringify(summary, null, 2));
      else {
        io.out(
          `Read ${summary.total} SMS again: ${summary.created} new records, ${summary.updated} updated, ${summary.unchanged} unchanged, ` +
            `${summary.removed} removed (${summary.keptReviewed} reviewed kept); ${summary.skippedPurged} skipped (body purged).`,
        );
      }
      return 0;
    },
  },
  {
    path: ['mobile-money', 'review'],
    summary: 'Mark a mobile-money record as reviewed, with a note',
    usage: 'hafatra mobile-money review EVENT_ID --note TEXT [--json]',
    options: { note: { type: 'string' } },
    async run(args, io, services) {
      const eventId = args.positionals[0];
      if (!eventId) throw new UsageError('name the mobile-money record (mm_…)');
      const note = requireString(args, 'note');
      const ctx = await services();
      const event = await reviewEvent(ctx.db, eventId, note);
      if (!event) {
        io.err(`error: no mobile-money record ${eventId}`);
        return 1;
      }
      printObject(io, args.json, args.json ? event : { id: event.id, review: event.review.status, note: event.review.note, reviewedAt: event.review.reviewedAt });
      return 0;
    },
  },
];
