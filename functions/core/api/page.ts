/**
 * The shape of a data-route body (docs/api-assumptions.md: page shape, aggregate routes, rows): `data` is an
 * array of row objects or one row object; `nextCursor` a string, null, or absent. Anything else is
 * API_BAD_RESPONSE — the rows are untrusted and checked only as far as the exporter relies on them.
 */
import * as z from 'zod/mini';
import { ExporterError } from '../errors';
import type { ApiRow } from './types';

const RowSchema = z.record(z.string(), z.unknown());

export const PageBodySchema = z.looseObject({
  data: z.union([z.array(RowSchema), RowSchema]),
  nextCursor: z.nullish(z.string()),
});

export interface ParsedPage {
  readonly rows: readonly ApiRow[];
  readonly nextCursor: string | null;
}

/** Parses the text of a 2xx body; `label` names the request in the error. */
export function parsePage(text: string, label: string): ParsedPage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ExporterError('API_BAD_RESPONSE', `${label}: the response is not JSON (${text.length} bytes)`, {
      retryable: false,
      details: { label },
    });
  }
  const fast = plainPage(json);
  if (fast) return fast;
  const parsed = PageBodySchema.safeParse(json);
  if (!parsed.success) {
    // the issues name paths and expected types, never the values themselves
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.code}`).join('; ');
    throw new ExporterError(
      'API_BAD_RESPONSE',
      `${label}: unexpected response shape — expected {"data": [...] | {...}, "nextCursor": string | null} (${where})`,
      { retryable: false, details: { label } },
    );
  }
  const { data, nextCursor } = parsed.data;
  return { rows: Array.isArray(data) ? data : [data], nextCursor: nextCursor ? nextCursor : null };
}

/**
 * The common case checked without zod (a hot path: zod re-validates and copies every row): an object
 * whose `data` is an array of plain objects (or one plain object) and whose `nextCursor` is a string,
 * null or absent. Anything else goes through the schema, which names what is wrong.
 */
function plainPage(json: unknown): ParsedPage | null {
  if (!isRecord(json)) return null;
  const { data, nextCursor } = json;
  if (!(nextCursor === undefined || nextCursor === null || typeof nextCursor === 'string')) return null;
  const cursor = nextCursor ? nextCursor : null;
  if (!Array.isArray(data)) return isRecord(data) ? { rows: [data], nextCursor: cursor } : null;
  for (const row of data) if (!isRecord(row)) return null;
  return { rows: data as ApiRow[], nextCursor: cursor };
}

function isRecord(value: unknown): value is ApiRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
