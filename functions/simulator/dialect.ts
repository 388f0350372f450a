/**
 * How this simulator reads a request and writes a page, where the API document is silent: the array
 * encoding it understands, whether it is strict about parameters, and where a page's cursor sits.
 * The default (any encoding, lenient, cursor at `nextCursor`) is the tolerant server the exporter
 * assumes; the other settings are servers that read the same document differently.
 */
import { ARRAY_PARAMS, type Route, SIM_ROUTE_SPECS } from './routes';

export type SimArrayFormat = 'any' | 'repeat' | 'comma' | 'brackets';
export type CursorLocation = 'nextCursor' | 'meta.nextCursor';

export interface Dialect {
  /**
   * `any` reads all three encodings. A single encoding reads arrays the way a server built for it
   * would: `repeat` takes every `a=` value whole, `comma` takes the first `a=` and splits it on
   * commas, `brackets` takes every `a[]=` value (a plain `a=` counts once, as its last value).
   */
  readonly arrayFormat: SimArrayFormat;
  /** 400 for an unknown parameter, a `limit` over the cap, or arrays in another encoding. */
  readonly strict: boolean;
  /** Where a list page carries its next cursor. */
  readonly cursorAt: CursorLocation;
}

export const DEFAULT_DIALECT: Dialect = { arrayFormat: 'any', strict: false, cursorAt: 'nextCursor' };

type Encoding = Exclude<SimArrayFormat, 'any'> | 'plain';

const EXAMPLE: Record<Encoding, string> = {
  plain: 'a plain parameter (metrics=a)',
  repeat: 'repeated parameters (metrics=a&metrics=b)',
  comma: 'one comma-joined value (metrics=a,b)',
  brackets: 'bracketed parameters (metrics[]=a&metrics[]=b)',
};

/** The values of array parameter `name` as this dialect reads them; undefined when absent. */
export function readArray(params: URLSearchParams, name: string, dialect: Dialect): string[] | undefined {
  const plain = params.getAll(name);
  const bracketed = params.getAll(`${name}[]`);
  let raw: string[];
  switch (dialect.arrayFormat) {
    case 'any':
      raw = [...plain, ...bracketed].flatMap((v) => v.split(','));
      break;
    case 'repeat':
      raw = plain;
      break;
    case 'comma':
      raw = plain.length > 0 ? (plain[0] ?? '').split(',') : [];
      break;
    case 'brackets':
      raw = bracketed.length > 0 ? bracketed : plain.slice(-1);
      break;
  }
  if (plain.length === 0 && bracketed.length === 0) return undefined;
  const values = raw.map((v) => v.trim()).filter((v) => v !== '');
  return [...new Set(values)];
}

/**
 * In strict mode, what is wrong with the request's parameters for `route` (unknown names, arrays in
 * another encoding, `limit` above `limitCap`); null when nothing is, or when the dialect is lenient.
 */
export function strictProblem(
  route: Route,
  params: URLSearchParams,
  dialect: Dialect,
  limitCap: number,
): string | null {
  if (!dialect.strict) return null;
  const accepted = SIM_ROUTE_SPECS[route].params;
  const arrays: readonly string[] = ARRAY_PARAMS;
  for (const key of new Set(params.keys())) {
    const base = key.endsWith('[]') ? key.slice(0, -2) : key;
    if (!accepted.includes(base) || (base !== key && !arrays.includes(base))) {
      return `unknown parameter "${key}" on ${route}; accepted: ${accepted.join(', ')}.`;
    }
  }
  if (dialect.arrayFormat !== 'any') {
    for (const name of arrays) {
      const used = encodingUsed(params, name, dialect.arrayFormat);
      if (used !== null && used !== dialect.arrayFormat) {
        return `${name} must be sent as ${EXAMPLE[dialect.arrayFormat]}; this request sent ${EXAMPLE[used]}.`;
      }
    }
  }
  const limit = params.get('limit');
  if (limit !== null && /^\d+$/.test(limit) && Number(limit) > limitCap) {
    return `limit must be at most ${limitCap}, got ${limit}.`;
  }
  return null;
}

/**
 * Which encoding a request used for `name`, when it tells: null when absent, and `plain` for one
 * value without a comma (right for `repeat` and `comma`, wrong for `brackets`).
 */
function encodingUsed(params: URLSearchParams, name: string, expected: Encoding): Encoding | null {
  if (params.has(`${name}[]`)) return 'brackets';
  const plain = params.getAll(name);
  if (plain.length > 1) return 'repeat';
  if (plain.length === 1 && (plain[0] ?? '').includes(',')) return 'comma';
  if (plain.length === 1) return expected === 'brackets' ? 'plain' : null;
  return null;
}

/** A list page's body with its cursor where the dialect puts it (`undefined` leaves the field out). */
export function pageBody(rows: unknown[], cursor: string | null | undefined, dialect: Dialect): unknown {
  const field = cursor === undefined ? {} : { nextCursor: cursor };
  return dialect.cursorAt === 'meta.nextCursor' ? { data: rows, meta: field } : { data: rows, ...field };
}
