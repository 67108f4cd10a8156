import { UsageError, optionalInt, printObject, printRows, type Command, type CommandArgs } from '../command.js';
import { orgOf, orgOption } from '../org-option.js';
import { normalizeRecipient } from '../../messages/recipients.js';
import { recordSystemAudit } from '../../audit/sql/record-system-audit.js';
import { selectOptOutPage } from '../../opt-outs/sql/select-opt-out-page.js';
import { insertOptOut } from '../../opt-outs/sql/insert-opt-out.js';
import { deleteOptOut } from '../../opt-outs/sql/delete-opt-out.js';
import { keywordsOfSettings, optOutSettingsView, type OptOutSetting } from '../../opt-outs/settings.js';
import { selectOptOutSettings } from '../../opt-outs/sql/select-opt-out-settings.js';
import { updateOptOutSettings } from '../../opt-outs/sql/update-opt-out-settings.js';
import { MAX_WORD_LENGTH, MAX_WORDS, wordsProblem } from '../../opt-outs/keywords.js';

const COLUMNS = ['id', 'number', 'source', 'incomingMessageId', 'reason', 'createdAt'];

/** The NUMBER argument as a send reads a recipient (E.164; national numbers in the organization's country). */
function numberOf(args: CommandArgs, defaultCountry: string): string {
  const raw = args.positionals[0];
  if (!raw) throw new UsageError('name the number (E.164, or national in the organization country)');
  const number = normalizeRecipient(raw, defaultCountry);
  if (number === null) throw new UsageError(`${raw} is not a phone number`);
  return number;
}

/** --stop-words A,B (or `default` for the shipped list). */
function wordsFrom(args: CommandArgs, name: string): string[] | null | undefined {
  const v = args.values[name];
  if (typeof v !== 'string') return undefined;
  if (v === 'default') return null;
  const words = [...new Set(v.split(',').map((w) => w.trim()))];
  if (words.length === 0 || words.length > MAX_WORDS || words.some((w) => w === '' || w.length > MAX_WORD_LENGTH)) {
    throw new UsageError(`--${name} takes up to ${MAX_WORDS} words of at most ${MAX_WORD_LENGTH} characters separated by commas, or default`);
  }
  return words;
}

/** --stop-reply TEXT (or `none`). */
function replyFrom(args: CommandArgs, name: string): string | null | undefined {
  const v = args.values[name];
  if (typeof v !== 'string') return undefined;
  if (v === 'none') return null;
  if (v.length === 0 || v.length > 480) throw new UsageError(`--${name} takes a text of 1 to 480 characters, or none`);
  return v;
}

/** The operator on the server acts as a member would: entries and changes say source `member`, the audit log says `cli`. */
export const optOutCommands: Command[] = [
  {
    path: ['opt-out', 'list'],
    summary: "List an organization's opted-out numbers, newest first",
    usage: 'hafatra opt-out list [--org default] [--limit 100] [--json]',
    options: { ...orgOption, limit: { type: 'string' } },
    async run(args, io, services) {
      const limit = optionalInt(args, 'limit', 1, 10_000) ?? 100;
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const rows = (await selectOptOutPage(ctx.db, { orgId: org.id, before: null, limit })).slice(0, limit);
      printRows(
        io,
        args.json,
        rows.map((r) => ({ ...r })),
        COLUMNS,
      );
      return 0;
    },
  },
  {
    path: ['opt-out', 'add'],
    summary: 'Add a number to the opt-out list: no send of the organization reaches it',
    usage: 'hafatra opt-out add NUMBER [--org default] [--reason TEXT] [--json]',
    options: { ...orgOption, reason: { type: 'string' } },
    async run(args, io, services) {
      const reason = typeof args.values.reason === 'string' ? args.values.reason : null;
      if (reason !== null && reason.length > 200) throw new UsageError('--reason takes at most 200 characters');
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const { row, created } = await insertOptOut(ctx.db, org.id, numberOf(args, org.defaultCountry), { source: 'member', reason });
      if (created) await recordSystemAudit(ctx.db, org.id, { action: 'opt_out.added', target: row.number, detail: { by: 'cli' } });
      else if (!args.json) io.err(`${row.number} was already opted out`);
      printObject(io, args.json, { ...row });
      return 0;
    },
  },
  {
    path: ['opt-out', 'remove'],
    summary: 'Remove a number from the opt-out list',
    usage: 'hafatra opt-out remove NUMBER [--org default]',
    options: orgOption,
    async run(args, io, services) {
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const number = numberOf(args, org.defaultCountry);
      if (!(await deleteOptOut(ctx.db, org.id, { number }, { source: 'member' }))) throw new UsageError(`${number} is not opted out in ${org.name}`);
      await recordSystemAudit(ctx.db, org.id, { action: 'opt_out.removed', target: number, detail: { by: 'cli' } });
      io.out(`${number} removed from the opt-out list`);
      return 0;
    },
  },
  {
    path: ['opt-out', 'settings'],
    summary: "Show or change an organization's stop and start words and its replies to them",
    usage: 'hafatra opt-out settings [--org default] [--stop-words W,W|default] [--start-words W,W|default] [--stop-reply TEXT|none] [--start-reply TEXT|none] [--json]',
    options: { ...orgOption, 'stop-words': { type: 'string' }, 'start-words': { type: 'string' }, 'stop-reply': { type: 'string' }, 'start-reply': { type: 'string' } },
    async run(args, io, services) {
      const change: OptOutSetting = {
        stopWords: wordsFrom(args, 'stop-words'),
        startWords: wordsFrom(args, 'start-words'),
        stopReply: replyFrom(args, 'stop-reply'),
        startReply: replyFrom(args, 'start-reply'),
      };
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const changed = Object.values(change).some((v) => v !== undefined);
      if (changed) {
        const current = (await selectOptOutSettings(ctx.db, org.id))!;
        const wrong = wordsProblem(change.stopWords, change.startWords, keywordsOfSettings(current));
        if (wrong) throw new UsageError(wrong);
        await updateOptOutSettings(ctx.db, org.id, change);
        await recordSystemAudit(ctx.db, org.id, { action: 'organization.updated', target: org.id, detail: { optOut: change, by: 'cli' } });
      }
      printObject(io, args.json, optOutSettingsView((await selectOptOutSettings(ctx.db, org.id))!));
      return 0;
    },
  },
];
