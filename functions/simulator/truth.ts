/**
 * Ground truth for tests and end-to-end checks: the rows the API serves for a request, computed by
 * the same engine that serves them, and the metric allowlists.
 */

import { validMetrics } from './catalog';
import type { Engine } from './engine';
import { queryFor } from './handlers';
import type { Route } from './routes';

export interface TruthQuery {
  startDate: string;
  endDate: string;
  metrics?: string[];
  platform?: string;
  contentType?: string;
  dateBasis?: string;
  instanceIds?: string[];
  campaignIds?: string[];
}

export interface GroundTruth {
  /** The complete rows the API serves for this request, in serving order, exactly as JSON-serialised (all pages concatenated). */
  rows(route: Route, query: TruthQuery): unknown[];
  /** Valid metric names for a route under the given platform/contentType filter. */
  validMetrics(route: Route, filter?: { platform?: string; contentType?: string }): string[];
  /** Instances of the default client. */
  boundInstanceIds: string[];
  /** Instances that exist but are not bound to the default client (403 when requested). */
  unboundInstanceIds: string[];
}

export function createTruth(engine: Engine): GroundTruth {
  const w = engine.world;
  return {
    rows(route, query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) {
        if (Array.isArray(v)) for (const x of v) params.append(k, String(x));
        else if (v !== undefined) params.set(k, String(v));
      }
      const q = queryFor(engine, route, params);
      if ('status' in q && typeof q.status === 'number')
        throw new Error(`truth.rows: ${q.title}: ${q.detail}`);
      const rows = engine.groupedRows(q as Exclude<typeof q, { status: number }>);
      // round-trip through JSON so callers compare exactly what goes over the wire
      return JSON.parse(JSON.stringify(rows)) as unknown[];
    },
    validMetrics: (route, filter) => validMetrics(route, filter),
    boundInstanceIds: w.instances.slice(0, w.boundInstances).map((i) => i.id),
    unboundInstanceIds: w.instances.slice(w.boundInstances).map((i) => i.id),
  };
}
