/**
 * The nine data routes: validate the query, then serve one page (list routes) or the whole answer
 * (aggregate routes). Errors use a plain `application/json` body `{message, title, detail}` on
 * purpose: the API document leaves the format open and clients must cope with that.
 */
import type { Cursors } from './cursor';
import { DEFAULT_DIALECT, type Dialect, pageBody, strictProblem } from './dialect';
import type { Engine } from './engine';
import { drawEmptyPage, type Faults } from './faults';
import { hash32, hashString } from './prng';
import { parseQuery, type Query, type QueryError } from './query';
import { type Route, SIM_ROUTE_SPECS } from './routes';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface DataContext {
  engine: Engine;
  cursors: Cursors;
  faults: Faults;
  seed: number;
  seq: number;
  dialect: Dialect;
}

/** A data-route error in the simulator's (deliberately non-problem+json) format. */
export function dataError(
  status: number,
  title: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Reply {
  return { status, body: { message: `${title}: ${detail}`, title, detail, ...extra } };
}

const isError = (q: Query | QueryError): q is QueryError => 'status' in q && typeof q.status === 'number';
const queryHash = (q: Query) =>
  hashString(
    JSON.stringify([
      q.route,
      q.startDate,
      q.endDate,
      q.metrics,
      q.platform,
      q.contentType,
      q.dateBasis,
      q.instances,
      q.campaignIds,
    ]),
  );

/** Parses the query for `route` against the engine's world; shared with the ground truth. */
export function queryFor(
  engine: Engine,
  route: Route,
  params: URLSearchParams,
  dialect: Dialect = DEFAULT_DIALECT,
): Query | QueryError {
  const w = engine.world;
  return parseQuery(
    route,
    params,
    { instanceIds: w.instances.map((i) => i.id), boundCount: w.boundInstances },
    dialect,
  );
}

export function handleData(route: Route, params: URLSearchParams, ctx: DataContext): Reply {
  const strict = strictProblem(route, params, ctx.dialect, ctx.faults.limitCap);
  if (strict !== null) return dataError(400, 'Invalid request', strict);
  const q = queryFor(ctx.engine, route, params, ctx.dialect);
  if (isError(q)) return dataError(q.status, q.title, q.detail, q.extra);
  if (!SIM_ROUTE_SPECS[route].paged) {
    const rows = ctx.engine.groupedRows(q);
    return { status: 200, body: { data: SIM_ROUTE_SPECS[route].single ? rows[0] : rows } };
  }
  return page(q, params, ctx);
}

function page(q: Query, params: URLSearchParams, ctx: DataContext): Reply {
  const rawLimit = params.get('limit');
  let limit = 100;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) {
      return dataError(400, 'Invalid parameter', `limit must be a positive integer, got "${rawLimit}".`);
    }
    limit = Number(rawLimit);
  }
  limit = Math.min(limit, ctx.faults.limitCap);
  const qh = queryHash(q);
  const sent = params.get('nextCursor');
  let position = 0;
  let pageNo = 0;
  if (sent !== null && sent !== '') {
    const state = ctx.cursors.decode(sent);
    if (state === null)
      return dataError(400, 'Invalid cursor', 'nextCursor is not a cursor this service issued.');
    if (state.query !== qh)
      return dataError(400, 'Invalid cursor', 'nextCursor belongs to a different query.');
    position = state.position;
    pageNo = state.page;
  }
  const cursorAt = (pos: number) => ctx.cursors.encode({ query: qh, position: pos, page: pageNo + 1 });
  const body = (data: unknown[], cursor: string | null | undefined) => pageBody(data, cursor, ctx.dialect);
  if (drawEmptyPage(ctx.seed, ctx.seq, ctx.faults)) {
    return { status: 200, body: body([], cursorAt(position)) };
  }
  let rows: unknown[];
  let next: number | null;
  if (q.route === 'posts/performance') {
    ({ rows, next } = ctx.engine.postsPage(q, position, limit, Math.max(limit * 20, 20_000)));
  } else {
    const all = ctx.engine.groupedRows(q);
    rows = all.slice(position, position + limit);
    next = position + limit < all.length ? position + limit : null;
  }
  if (ctx.faults.repeatCursor && sent) return { status: 200, body: body(rows, sent) };
  if (next !== null) return { status: 200, body: body(rows, cursorAt(next)) };
  // the last page says "no more" in one of three ways (null, absent, ""), fixed per query
  const style = hash32(ctx.seed, qh, 31) % 3;
  return { status: 200, body: body(rows, style === 0 ? null : style === 1 ? undefined : '') };
}
