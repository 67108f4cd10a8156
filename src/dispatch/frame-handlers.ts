import type { TSchema } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { HafatraError, errors, isHafatraError } from '../errors/errors.js';
import { compileValidator } from '../schemas/validation.js';
import { ClaimBody, StatusReport } from './schemas.js';
import type { StatusReportWriter } from './status-reports.js';
import type { RecentAnswers } from './recent-answers.js';
import type { FrameReply } from './frame-reply.js';

/** A frame operation the socket and the HTTP fallback share (heartbeat, incoming SMS). */
export interface DeviceOperation {
  schema: TSchema;
  // biome-ignore lint/suspicious/noExplicitAny: validated against `schema` just before; each operation declares its own body type.
  handle(principal: DevicePrincipal, body: any): Promise<object>;
}

export interface DeviceOperations {
  heartbeat?: DeviceOperation;
  incoming?: DeviceOperation;
}

export interface FrameContext {
  ctx: AppContext;
  principal: DevicePrincipal;
  reports: StatusReportWriter;
  ops: DeviceOperations;
  onJobs(count: number): void;
  onSettled(count: number): void;
  /** The quick check (Redis's copy of the device state), made before every frame. */
  isRevoked(): Promise<boolean>;
  /** The authoritative check (the device row), for frames refused or claims come back empty. */
  isRevokedInPostgres(): Promise<boolean>;
  /** The socket's recent answers by ref: a resent frame is answered again without running again. */
  answers?: RecentAnswers;
}

const claimValidator = compileValidator(ClaimBody);
const statusValidator = compileValidator(StatusReport);

function errorFrame(ref: string | null, err: HafatraError): FrameReply {
  return { type: 'error', ref, code: err.code, message: err.message };
}

/** A phone frame as read off the socket: a JSON object with a valid ref, or the error answering it. */
export type ParsedFrame = { frame: Record<string, unknown>; ref: string } | { invalid: FrameReply };

export function parseFrame(text: string): ParsedFrame {
  let frame: Record<string, unknown>;
  try {
    frame = JSON.parse(text) as Record<string, unknown>;
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) throw new Error();
  } catch {
    return { invalid: errorFrame(null, errors.invalid('frame: not a JSON object')) };
  }
  const ref = typeof frame.ref === 'string' && frame.ref.length >= 1 && frame.ref.length <= 64 ? frame.ref : null;
  if (ref === null) return { invalid: errorFrame(null, errors.invalid('ref: every frame needs a ref of 1 to 64 characters')) };
  return { frame, ref };
}

/** Answers a parsed frame. Never throws: every failure is an `error` frame. */
export async function answerFrame(fc: FrameContext, parsed: ParsedFrame): Promise<FrameReply> {
  if ('invalid' in parsed) return parsed.invalid;
  const { frame, ref } = parsed;
  // Checked before the remembered answers too: after a revocation, a resend gets no_session as well.
  try {
    if (await fc.isRevoked()) return errorFrame(ref, noSession());
  } catch (err) {
    fc.ctx.log.error({ err, deviceId: fc.principal.deviceId }, 'frame failed');
    return errorFrame(ref, errors.internal());
  }
  return fc.answers ? fc.answers.answer(ref, () => runFrame(fc, ref, frame)) : runFrame(fc, ref, frame);
}

async function runFrame(fc: FrameContext, ref: string, frame: Record<string, unknown>): Promise<FrameReply> {
  const { type, ref: _ref, ...body } = frame;
  try {
    return { type: 'ack', ref, ...(await dispatchFrame(fc, String(type), body)) };
  } catch (err) {
    if (isHafatraError(err)) {
      // A frame racing a revocation fails on what the revocation changed (its messages became
      // unknown, its heartbeat finds no live device) before Redis says revoked: Postgres decides.
      if (err.code !== 'no_session' && err.code !== 'invalid_request' && (await revokedInPostgres(fc))) return errorFrame(ref, noSession());
      return errorFrame(ref, err);
    }
    fc.ctx.log.error({ err, deviceId: fc.principal.deviceId, type }, 'frame failed');
    return errorFrame(ref, errors.internal());
  }
}

async function revokedInPostgres(fc: FrameContext): Promise<boolean> {
  try {
    return await fc.isRevokedInPostgres();
  } catch {
    return false; // the refusal stands as it was
  }
}

async function dispatchFrame(fc: FrameContext, type: string, body: Record<string, unknown>): Promise<object> {
  switch (type) {
    case 'claim': {
      const { max } = claimValidator.check(body, 'claim');
      const result = await fc.ctx.dispatch.claim(fc.principal, max ?? 10);
      // With nothing queued, the claim never reached Postgres, which alone knows of a revocation
      // Redis has not heard of yet: an empty answer is checked there (a primary-key read).
      if (result.refused === 'revoked' || (result.jobs.length === 0 && (await revokedInPostgres(fc)))) throw noSession();
      fc.onJobs(result.jobs.length);
      return { jobs: result.jobs, ...(result.retryAfterMs > 0 ? { retryAfterMs: result.retryAfterMs } : {}) };
    }
    case 'status': {
      const report = statusValidator.check(body, 'status');
      const outcome = await fc.reports.submit(fc.principal.deviceId, report);
      if ('error' in outcome) throw errors.invalidTransition(outcome.error.message);
      if (!outcome.duplicate && (outcome.status === 'sent' || outcome.status === 'failed')) fc.onSettled(1);
      return outcome;
    }
    case 'heartbeat':
    case 'incoming': {
      const op = fc.ops[type];
      if (!op) throw errors.invalid(`type: ${type} frames are not supported by this server`);
      return op.handle(fc.principal, compileCached(op.schema).check(body, type));
    }
    default:
      throw errors.invalid('type: must be one of heartbeat, claim, status, incoming');
  }
}

const compiled = new WeakMap<TSchema, ReturnType<typeof compileValidator>>();
function compileCached(schema: TSchema) {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = compileValidator(schema)));
  return v;
}

export const noSession = () => new HafatraError('no_session', 'this device session has ended (device revoked); pair again');
