/**
 * A report of a schedule: its route, metrics, filters, params, column types and summary, with the
 * route-dependent checks (which filters and metrics a route takes).
 */
import { z } from 'zod';
import { COLUMN_TYPES } from '../manifest';
import { explainBadRoute, isLinkMetric, ROUTE_SPECS, ROUTES, routesWhere } from './routes';
import { ALWAYS, currencySchema, idSchema, labelsSchema, strings, titleSchema } from './schema-fields';

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
    /**
     * Where the API's own aggregate of a KPI that is never summed (a rate, an average, ROI) is: the id
     * of a report of the same schedule on `instances/performance` (its one row is the API's figure for
     * all the accounts it covers). Without it the card shows the average per row, labelled so.
     */
    aggregates: z.record(z.string().min(1), idSchema('an aggregates report id')).optional(),
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

export const reportSchema = z
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

/** What a route without the base filters takes, for messages. */
function takes(spec: { instanceIds: boolean }): string {
  return spec.instanceIds ? 'only instanceIds of the filters' : 'no filters (only limit and nextCursor)';
}
