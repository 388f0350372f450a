/**
 * Payloads that fit Step Functions by construction. Every state's input and output is limited to
 * 256 KB, and the Finalize step receives the plan plus every report's outcome at once. So:
 *
 * - top-N rows carry only the columns the email shows, each cut to its display length
 *   (`trimTopRows`, the same choice the email renderer makes), with every known secret masked;
 * - a failure's reason is cut to `MAX_REASON_CHARS` (server text, e.g. a list of valid metrics);
 * - a checkpoint may not pass `MAX_CHECKPOINT_BYTES`, nor a cursor `MAX_CURSOR_CHARS`;
 * - an outcome keeps within its share of the run's budget (`outcomeBudget`): when it does not, its top
 *   rows are dropped first, and only then does the report fail with a plain reason;
 * - `cdk synth` and `validate` estimate the largest payload of a config (`./payload-estimate`).
 */
import type { ReportingApi } from '../api/types';
import type { ReportConfig } from '../config/schema';
import { trimTopRows } from '../email/top-columns';
import { ExporterError } from '../errors';
import type { SummaryRow } from '../export/top';
import type { ReportWarning } from '../manifest';
import type { CheckpointState } from './checkpoint';
import type { ReportOutcome } from './types';

/**
 * What the exporter lets a payload reach, of Step Functions' 256 KB limit on a state's input or
 * output (UTF-8 bytes): the rest is margin for the workflow's own fields.
 */
export const SAFE_PAYLOAD_BYTES = 224 * 1024;
/** A checkpoint travels alone (one report's state), but must leave room for its task. */
export const MAX_CHECKPOINT_BYTES = 192 * 1024;
/** Cursors go into URLs too; a longer one is a server misbehaving. */
export const MAX_CURSOR_CHARS = 4096;
/** A failed report's reason in the manifest and the email. */
export const MAX_REASON_CHARS = 1500;

export function payloadBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}

/** Top rows as they may leave the step: the email's columns and lengths, secrets masked. */
export function summaryTop(
  rows: readonly SummaryRow[],
  report: ReportConfig,
  api: Pick<ReportingApi, 'redact'>,
): SummaryRow[] {
  const trimmed = trimTopRows(rows, report);
  return api.redact ? api.redact(trimmed) : trimmed;
}

/** A reason short enough for every payload (server text can be long). */
export function shortReason(reason: string): string {
  const chars = Array.from(reason);
  return chars.length <= MAX_REASON_CHARS ? reason : `${chars.slice(0, MAX_REASON_CHARS - 1).join('')}…`;
}

/** The checkpoint with trimmed, redacted top rows; STATE_TOO_LARGE when it still does not fit. */
export function boundedCheckpoint(
  state: CheckpointState,
  report: ReportConfig,
  api: Pick<ReportingApi, 'redact'>,
): CheckpointState {
  if (state.cursor.length > MAX_CURSOR_CHARS) {
    throw new ExporterError(
      'API_BAD_RESPONSE',
      `the server sent a nextCursor of ${state.cursor.length} characters (at most ${MAX_CURSOR_CHARS} are accepted)`,
      { details: { cursorChars: state.cursor.length } },
    );
  }
  const rows = summaryTop(
    state.top.map((e) => e.row),
    report,
    api,
  );
  const bounded = { ...state, top: state.top.map((e, i) => ({ ...e, row: rows[i] ?? {} })) };
  const bytes = payloadBytes(bounded);
  if (bytes > MAX_CHECKPOINT_BYTES) throw tooLarge('checkpoint', bytes, MAX_CHECKPOINT_BYTES, bounded);
  return bounded;
}

/**
 * A report's share of the Finalize payload: the safe limit, less the plan, split evenly between the
 * schedule's reports.
 */
export function outcomeBudget(planBytes: number, reports: number): number {
  return Math.floor((SAFE_PAYLOAD_BYTES - planBytes) / Math.max(1, reports));
}

/** The outcome within `budget` bytes: top rows dropped when needed; STATE_TOO_LARGE when even then not. */
export function boundedOutcome(outcome: ReportOutcome, budget: number): ReportOutcome {
  if (payloadBytes(outcome) <= budget) return outcome;
  const warning: ReportWarning = {
    code: 'TOP_ROWS_OMITTED',
    message: `the top ${outcome.top.length} rows were left out of the summary: with them this report's result would pass the ${kb(budget)} KB it may use of a Step Functions payload; lower summary.topN or move reports to another schedule`,
    count: outcome.top.length,
  };
  const manifest = { ...outcome.manifest, warnings: [...(outcome.manifest.warnings ?? []), warning] };
  const bare = { manifest, top: [] };
  const bytes = payloadBytes(bare);
  if (bytes <= budget) return bare;
  throw tooLarge('result', bytes, budget, outcome.manifest);
}

function tooLarge(
  what: 'checkpoint' | 'result',
  bytes: number,
  limit: number,
  content: {
    files: readonly unknown[];
    columns?: readonly unknown[];
    schema?: { fields: readonly unknown[] };
  },
): ExporterError {
  const files = content.files.length;
  const columns = content.columns?.length ?? content.schema?.fields.length ?? 0;
  return new ExporterError(
    'STATE_TOO_LARGE',
    `the report's ${what} (${kb(bytes)} KB: ${files} files, ${columns} columns) does not fit the ${kb(limit)} KB it may use of a Step Functions payload (256 KB for the whole run); raise output.maxRowsPerPart (fewer, larger parts), export fewer formats, or move reports to another schedule`,
    { details: { bytes, limit, files, columns } },
  );
}

const kb = (bytes: number) => Math.ceil(bytes / 1024);
