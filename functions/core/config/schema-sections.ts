/** The `api`, `output` and `email` sections of `reports.yaml`. */
import { z } from 'zod';
import { CURSOR_PATH, DEFAULT_CURSOR_PATH } from '../api/cursor-location';
import { DEFAULT_MAX_KEYS_PER_OBJECT } from '../export/flatten';
import { FORMAT_IDS } from '../export/formats';
import { baseUrlProblems, prefixProblem } from './locations';
import { currencySchema, labelsSchema, mailbox, recipientList } from './schema-fields';

export const apiSchema = z.strictObject({
  baseUrl: z
    .url({ error: 'baseUrl must be an absolute URL such as https://reporting.example.com' })
    .superRefine((value, ctx) => {
      // zod runs this refinement even after .url() failed; that failure already has its message.
      for (const message of baseUrlProblems(value)) ctx.addIssue({ code: 'custom', message });
    }),
  credentialsSecret: z
    .string()
    .min(1)
    .describe('Secrets Manager id; its SecretString is {"clientId","clientSecret"}'),
  arrayFormat: z.enum(['repeat', 'comma', 'brackets']).default('repeat'),
  /**
   * How the token request carries the credentials: `json` `{"clientId","clientSecret"}` (the API
   * document's field names), or `form`, an OAuth 2.0 form body
   * (`grant_type=client_credentials&client_id=…&client_secret=…`) for servers that expect one.
   */
  tokenRequest: z.enum(['json', 'form']).default('json'),
  /**
   * Where list pages carry the next cursor: a dotted path into the answer. The API document does not
   * say; `check` reports where a server puts it (e.g. `meta.nextCursor`).
   */
  cursorPath: z
    .string()
    .regex(CURSOR_PATH, {
      error: 'cursorPath is a dotted path of field names, e.g. nextCursor or meta.nextCursor',
    })
    .default(DEFAULT_CURSOR_PATH),
  pageSize: z.int().min(1).max(10_000).default(500),
  concurrency: z.int().min(1).max(64).default(4),
  timeoutSeconds: z.number().positive().max(900).default(30),
  maxRetries: z.int().min(0).max(20).default(5),
  /** The largest API response read; a larger one fails the report before it is parsed. */
  maxResponseMiB: z.number().min(1).max(512).default(32),
  /**
   * Pages in a row that only repeat rows already exported (or repeat an earlier page) before the
   * report fails: a server ignoring the cursor would otherwise be paged forever.
   */
  maxRepeatedPages: z.int().min(1).max(1000).default(3),
  /** Pages one report may take before it fails (a hard stop for a server that pages without end). */
  maxPages: z.int().min(1).max(100_000_000).default(100_000),
  /**
   * A page that says its results are partial (`errors`, `warnings`, `partial: true` … in a 200):
   * `warn` (the report warning SERVER_PARTIAL) or `fail` the report.
   */
  serverPartial: z.enum(['warn', 'fail']).default('warn'),
});

export const outputSchema = z.strictObject({
  prefix: z
    .string()
    .default('exports/')
    .superRefine((p, ctx) => {
      const message = prefixProblem(p);
      if (message !== null) ctx.addIssue({ code: 'custom', message });
    }),
  formats: z
    .array(z.enum(FORMAT_IDS))
    .min(1, { error: `formats needs at least one of ${FORMAT_IDS.join(', ')}` })
    .refine((f) => new Set(f).size === f.length, { error: 'formats lists a format twice' })
    .default(['parquet', 'csv']),
  /** A part file rolls over to the next at this many rows (bounds memory and file size). */
  maxRowsPerPart: z.int().min(1_000).max(50_000_000).default(1_000_000),
  maxKeysPerObject: z
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_MAX_KEYS_PER_OBJECT)
    .describe(
      'A nested object with more keys than this (per-country counts, data used as keys) is one column of JSON text instead of a column per key, with an OBJECT_AS_JSON warning',
    ),
  columnNames: z
    .enum(['snake_case', 'api'])
    .default('snake_case')
    .describe(
      "Column names in files and tables: snake_case (paid_impressions), or the API's own names. Fixed per report once its column model exists",
    ),
  csvFormulaGuard: z
    .boolean()
    .default(false)
    .describe(
      "Prefix CSV text cells starting with = + - @ tab or CR with ' (for people opening exports in a spreadsheet). Emailed attachments are always guarded",
    ),
  /** Deploy only: write into this existing bucket instead of creating one. */
  bucketName: z.string().min(3).max(63).optional(),
});

const noCrLfText = (s: string) => !/[\r\n]/.test(s);

export const emailSchema = z.strictObject({
  from: mailbox.describe('an SES-verified identity, e.g. "Reports <reports@example.com>"'),
  attachCsvUpToMiB: z.number().min(0).max(25).default(5),
  /** Where replies go (e.g. the data team), instead of the sending identity. */
  replyTo: mailbox.optional(),
  /** Who gets the technical detail of every schedule (errors, warnings, locations); per schedule too. */
  operators: recipientList,
  /** Currency of money metrics (spend, cost, revenue); per report too. None: plain numbers. */
  currency: currencySchema.optional(),
  /**
   * Metric labels for every report, and the words for values (`draft: Not started`, `tiktok: TikTok`);
   * a report's own `labels` win.
   */
  labels: labelsSchema,
  /** What the email calls the API's instances (default "account"/"accounts"), e.g. brand/brands. */
  accountTerm: z
    .strictObject({
      one: z.string().min(1).max(30).refine(noCrLfText, { error: 'a term may not contain line breaks' }),
      many: z.string().min(1).max(30).refine(noCrLfText, { error: 'a term may not contain line breaks' }),
    })
    .optional(),
});
