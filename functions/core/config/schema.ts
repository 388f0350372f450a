/**
 * The one schema of `reports.yaml` (docs/config.md). Types are derived from it; the JSON Schema in
 * `schema/reports.schema.json` is generated from it. Every rule that can be checked before a network
 * call lives here, so `validate`, `run` and `cdk synth` reject the same configs with the same messages.
 */
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { CURSOR_PATH, DEFAULT_CURSOR_PATH } from '../api/cursor-location';
import { FORMAT_IDS } from '../export/formats';
import { COLUMN_TYPES } from '../manifest';
import { windowProblem } from '../window-kinds';
import { parseScheduleExpression } from './cron';
import { deploySchema } from './deploy-schema';
import { baseUrlProblems, prefixProblem } from './locations';
import { explainBadRoute, isLinkMetric, ROUTE_SPECS, ROUTES, routesWhere } from './routes';

const ID = /^[a-z0-9-]{1,40}$/;
/** Query parameters the exporter sets itself; `params` may not override them. */
const MANAGED_PARAMS = [
  'startDate',
  'endDate',
  'metrics',
  'instanceIds',
  'campaignIds',
  'platform',
  'contentType',
  'dateBasis',
  'limit',
  'nextCursor',
];
/** Why `reportingGroupIds` is rejected wherever it is written. */
export const REPORTING_GROUPS_REMOVED =
  'reportingGroupIds was removed in v2 and is not accepted; scope the report with instanceIds (and campaignIds) instead';

/** Most earlier windows a run may re-export (`lookback`): 28 days of a daily schedule. */
export const MAX_LOOKBACK = 28;
/** Revisions smaller than this (in percent of the old total) are not mentioned in the email. */
export const DEFAULT_REVISED_THRESHOLD_PERCENT = 0.5;

/** Cross-field checks run even when a field failed, so one `validate` lists every problem. */
const ALWAYS = { when: () => true };

const noCrLf = (s: string) => !/[\r\n]/.test(s);

const idSchema = (what: string) =>
  z.string().regex(ID, { error: `${what} must be 1–40 characters of a-z, 0-9 and "-"` });

/** A bare address. Line breaks get their own message (and are never echoed: header injection). */
const emailAddress = z
  .string()
  .superRefine((value, ctx) => {
    if (!noCrLf(value)) {
      ctx.addIssue({ code: 'custom', message: 'email addresses may not contain line breaks' });
    } else if (!z.email().safeParse(value).success) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address` });
    }
  })
  .meta({ format: 'email' }); // the JSON Schema keeps the editor hint

/** `Name <addr@example.com>` or a bare address. */
const mailbox = z.string().superRefine((value, ctx) => {
  if (!noCrLf(value)) {
    ctx.addIssue({ code: 'custom', message: 'the sender may not contain line breaks' });
    return;
  }
  const m = /^\s*(?:(.*?)\s*<([^<>]+)>|([^<>\s]+))\s*$/.exec(value);
  const address = m?.[2] ?? m?.[3];
  if (!address || !z.email().safeParse(address).success) {
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not a valid sender; write "Reports <reports@example.com>" or "reports@example.com"`,
    });
  }
});

/** `ssm:/report-exporter/weekly/recipients`: an SSM parameter (String or StringList) read at send time. */
export const SSM_REF = /^ssm:(\/[A-Za-z0-9_.\-/]{1,1000})$/;

/** One entry of `recipients` / `operators`: an address, or an SSM parameter holding comma-separated ones. */
const recipientEntry = z
  .string()
  .superRefine((value, ctx) => {
    if (!noCrLf(value)) {
      ctx.addIssue({ code: 'custom', message: 'email addresses may not contain line breaks' });
    } else if (value.startsWith('ssm:')) {
      if (!SSM_REF.test(value) || value.endsWith('/')) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" is not an SSM parameter reference; write ssm:/path/to/parameter (letters, digits, _ . - /)`,
        });
      }
    } else if (!z.email().safeParse(value).success) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address` });
    }
  })
  .describe('an email address, or ssm:/path naming an SSM parameter with comma-separated addresses');

/** A list of entries, or one `ssm:/path` on its own (read at send time, so no redeploy to change it). */
const recipientList = z
  .union(
    [
      z.array(recipientEntry),
      z
        .string()
        .regex(SSM_REF)
        .transform((ref) => [ref]),
    ],
    { error: 'write a list of addresses (and ssm:/path entries), or one ssm:/path' },
  )
  .default([]);

/** Metric → the words people use for it (`paidImpressions: Paid reach`); keys are API or column names. */
const labelsSchema = z
  .record(
    z.string().min(1),
    z.string().min(1).max(60).refine(noCrLf, { error: 'a label may not contain line breaks' }),
  )
  .default({});

/** ISO 4217 code for money metrics (EUR, USD …), formatted with Intl. */
const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: 'currency must be an ISO 4217 code such as EUR or USD' })
  .refine((c) => Intl.supportedValuesOf('currency').includes(c), {
    error: (iss) => `unknown currency "${String(iss.input)}"; use an ISO 4217 code such as EUR or USD`,
  });

/** A human title: one line, short enough for a subject. */
const titleSchema = z
  .string()
  .min(1)
  .max(120)
  .refine(noCrLf, { error: 'a title may not contain line breaks' });

const apiSchema = z.strictObject({
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
});

const outputSchema = z.strictObject({
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

const emailSchema = z.strictObject({
  from: mailbox.describe('an SES-verified identity, e.g. "Reports <reports@example.com>"'),
  attachCsvUpToMiB: z.number().min(0).max(25).default(5),
  /** Where replies go (e.g. the data team), instead of the sending identity. */
  replyTo: mailbox.optional(),
  /** Who gets the technical detail of every schedule (errors, warnings, locations); per schedule too. */
  operators: recipientList,
  /** Currency of money metrics (spend, cost, revenue); per report too. None: plain numbers. */
  currency: currencySchema.optional(),
  /** Metric labels for every report; a report's own `labels` win. */
  labels: labelsSchema,
});

const filtersSchema = z.strictObject({
  platform: z.string().min(1).optional(),
  contentType: z.string().min(1).optional(),
  dateBasis: z.enum(['post_date', 'performance_date']).optional(),
  instanceIds: z.array(z.string().min(1)).default([]),
  campaignIds: z.array(z.string().min(1)).default([]),
  reportingGroupIds: z.never({ error: REPORTING_GROUPS_REMOVED }).optional(),
});

const summarySchema = z
  .strictObject({
    kpis: z.array(z.string().min(1)).default([]),
    topBy: z.string().min(1).optional(),
    /**
     * Length of the top list; needs `topBy` (a top list has to be ranked by something). Absent means
     * DEFAULT_TOP_N. Not defaulted here, so a parsed config validates again unchanged.
     */
    topN: z.int().min(1).max(100).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.topN !== undefined && s.topBy === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['topN'],
        message:
          'topN needs topBy: name the metric that ranks the top list (e.g. "topBy: likes"), or remove topN',
      });
    }
  });

const windowSchema = z.string().superRefine((value, ctx) => {
  const problem = windowProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

const reportSchema = z
  .strictObject({
    id: idSchema('report id'),
    title: titleSchema.optional(),
    route: z.enum(ROUTES, { error: (iss) => explainBadRoute(iss.input) }),
    metrics: z.array(z.string().min(1)).optional(),
    filters: filtersSchema.default({ instanceIds: [], campaignIds: [] }),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    columns: z
      .record(z.string().min(1), z.enum(COLUMN_TYPES))
      .default({})
      .describe(
        "Types for columns the type rule gets wrong, by the API's name (or the column's name); applied when the column enters the report's column model",
      ),
    summary: summarySchema.default({ kpis: [] }),
    labels: labelsSchema,
    currency: currencySchema.optional(),
  })
  .superRefine((report, ctx) => {
    // Runs even when a field already failed (`when` below), so every problem is listed in one go:
    // the value may then be partly unparsed, hence the defensive reads.
    if (!(ROUTES as readonly string[]).includes(report.route)) return;
    const spec = ROUTE_SPECS[report.route];
    const metrics = strings(report.metrics);
    if (spec.metrics === 'required' && metrics.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['metrics'],
        message: `route "${report.route}" requires metrics (the API rejects the request without them)`,
      });
    }
    if (spec.metrics === 'forbidden' && report.metrics !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['metrics'],
        message: `route "${report.route}" returns no metrics; remove metrics`,
      });
    }
    if (new Set(metrics).size !== metrics.length) {
      ctx.addIssue({ code: 'custom', path: ['metrics'], message: 'metrics lists a name twice' });
    }
    if (!spec.linkMetrics) {
      const bad = metrics.filter(isLinkMetric);
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['metrics'],
          message: `route "${report.route}" never returns trackingLinks*/affiliateLinks* metrics (${bad.join(', ')}); they are available on ${routesWhere((r) => r.linkMetrics).join(', ')}`,
        });
      }
    }
    const f = (report.filters ?? {}) as Partial<typeof report.filters>;
    if (f.platform !== undefined && f.contentType !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['filters'],
        message: 'platform and contentType are mutually exclusive',
      });
    }
    if (!spec.instanceIds && strings(f.instanceIds).length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['filters', 'instanceIds'],
        message: `route "${report.route}" takes ${takes(spec)}; remove instanceIds`,
      });
    }
    if (!spec.baseFilters) {
      for (const key of ['platform', 'contentType', 'dateBasis'] as const) {
        if (f[key] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['filters', key],
            message: `route "${report.route}" takes ${takes(spec)}; remove ${key}`,
          });
        }
      }
      if (strings(f.campaignIds).length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['filters', 'campaignIds'],
          message: `route "${report.route}" takes ${takes(spec)}; remove campaignIds`,
        });
      }
    }
    for (const key of Object.keys(report.params ?? {})) {
      if (key.replace(/\[\]$/, '') === 'reportingGroupIds') {
        ctx.addIssue({ code: 'custom', path: ['params', key], message: REPORTING_GROUPS_REMOVED });
      } else if (MANAGED_PARAMS.includes(key) || MANAGED_PARAMS.includes(key.replace(/\[\]$/, ''))) {
        ctx.addIssue({
          code: 'custom',
          path: ['params', key],
          message: `"${key}" is set by the exporter (from the window, metrics, filters or paging); remove it from params`,
        });
      }
    }
    const s = (report.summary ?? {}) as Partial<typeof report.summary>;
    for (const [i, kpi] of strings(s.kpis).entries()) {
      if (!metrics.includes(kpi)) {
        ctx.addIssue({
          code: 'custom',
          path: ['summary', 'kpis', i],
          message: `KPI "${kpi}" is not one of this report's metrics`,
        });
      }
    }
    if (s.topBy !== undefined && !metrics.includes(s.topBy)) {
      ctx.addIssue({
        code: 'custom',
        path: ['summary', 'topBy'],
        message: `topBy "${s.topBy}" is not one of this report's metrics`,
      });
    }
  }, ALWAYS);

const scheduleSchema = z
  .strictObject({
    id: idSchema('schedule id'),
    title: titleSchema.optional(),
    description: z
      .string()
      .min(1)
      .max(200)
      .refine(noCrLf, { error: 'description may not contain line breaks' })
      .optional(),
    cron: z.string().superRefine((value, ctx) => {
      const parsed = parseScheduleExpression(value);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    }),
    timezone: z
      .string()
      .default('UTC')
      .refine((tz) => IANAZone.isValidZone(tz), {
        error: (iss) =>
          `unknown timezone "${String(iss.input)}"; use an IANA name such as Europe/Berlin or UTC`,
      }),
    enabled: z.boolean().default(true),
    window: windowSchema,
    lookback: z
      .int()
      .min(0)
      .max(MAX_LOOKBACK, {
        error: `lookback is at most ${MAX_LOOKBACK} (each run re-exports that many earlier windows)`,
      })
      .default(0)
      .describe("Re-export the windows of the schedule's N previous occurrences on every run"),
    revisedThresholdPercent: z
      .number()
      .min(0)
      .max(100)
      .default(DEFAULT_REVISED_THRESHOLD_PERCENT)
      .describe('The email lists a revised KPI total only when it moved by more than this percentage'),
    recipients: recipientList,
    operators: recipientList,
    reports: z.array(reportSchema).min(1, { error: 'a schedule needs at least one report' }),
  })
  .superRefine((schedule, ctx) => {
    const reports = Array.isArray(schedule.reports) ? schedule.reports : [];
    duplicates(reports.map((r) => r?.id)).forEach((i) => {
      ctx.addIssue({
        code: 'custom',
        path: ['reports', i, 'id'],
        message: `report id "${reports[i]?.id}" is used twice in this schedule`,
      });
    });
  }, ALWAYS);

export const ConfigSchema = z
  .strictObject({
    api: apiSchema,
    output: outputSchema.default({
      prefix: 'exports/',
      formats: ['parquet', 'csv'],
      maxRowsPerPart: 1_000_000,
      columnNames: 'snake_case',
      csvFormulaGuard: false,
    }),
    email: emailSchema.optional(),
    operations: z
      .strictObject({ alarmEmail: emailAddress.optional() })
      .default({})
      .describe('Deploy only: where alarms are sent'),
    deploy: deploySchema,
    schedules: z.array(scheduleSchema).min(1, { error: 'the config needs at least one schedule' }),
  })
  .superRefine((config, ctx) => {
    const schedules = Array.isArray(config.schedules) ? config.schedules : [];
    duplicates(schedules.map((s) => s?.id)).forEach((i) => {
      ctx.addIssue({
        code: 'custom',
        path: ['schedules', i, 'id'],
        message: `schedule id "${schedules[i]?.id}" is used twice`,
      });
    });
    if (config.email === undefined) {
      schedules.forEach((s, i) => {
        for (const key of ['recipients', 'operators'] as const) {
          if (strings(s?.[key]).length > 0) {
            ctx.addIssue({
              code: 'custom',
              path: ['schedules', i, key],
              message: `${key} are set but the config has no email.from; add an email section`,
            });
          }
        }
      });
    }
  }, ALWAYS);

/** What a route without the base filters takes, for messages. */
function takes(spec: { instanceIds: boolean }): string {
  return spec.instanceIds ? 'only instanceIds of the filters' : 'no filters (only limit and nextCursor)';
}

function duplicates(ids: readonly unknown[]): number[] {
  const seen = new Set<unknown>();
  const out: number[] = [];
  ids.forEach((id, i) => {
    if (typeof id === 'string' && seen.has(id)) out.push(i);
    seen.add(id);
  });
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export type Config = z.infer<typeof ConfigSchema>;
export type ScheduleConfig = Config['schedules'][number];
export type ReportConfig = ScheduleConfig['reports'][number];
export type { DeployConfig } from './deploy-schema';
