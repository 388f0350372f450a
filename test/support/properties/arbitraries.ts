/**
 * Generators of whole API answers for the export property tests (not a test file): rows with hostile
 * keys, nesting and arrays, numbers of every magnitude as their exact JSON text, strings of every kind
 * of code point, metrics as numbers, numeric strings, nulls and absent keys, identifying fields as
 * numbers and strings; the rows split into pages anywhere, each body sent in pieces split anywhere and
 * in a declared charset. Input classes a known defect still breaks are kept out by `PENDING_FIX`.
 */
import fc from 'fast-check';
import type { Exact } from '../exact-json';
import { PENDING_FIX } from './pending';

/** The metrics a generated report may request (all pass the config schema on both routes used). */
export const METRIC_POOL = [
  'likes',
  'comments',
  'shares',
  'paidImpressions',
  'avgWatchTime',
  'engagementRate',
  'paidAdSpend',
  'reach',
] as const;

export const ROUTES = {
  'posts/performance': 'postId',
  'creators/performance': 'creatorId',
} as const;
export type Route = keyof typeof ROUTES;

/** Keys that have broken exporters: prototype names, metric, window and partition names, case twins. */
const HOSTILE_KEYS = [
  '',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'likes',
  'Likes',
  'LIKES',
  'avg_watch_time',
  'window_start',
  'window_end',
  'windowStart',
  'WINDOW_END',
  'post_id',
  'PostId',
  'a.b',
  'a_b',
  'A_B',
  'likes__raw',
  'likes__2',
  '__raw',
  'x y',
  'é',
  '😀',
  ...(PENDING_FIX.dtField ? [] : ['dt', 'DT', 'Dt']),
];

export const keyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
  ...(PENDING_FIX.loneSurrogates
    ? []
    : [{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) }]),
);

const TWO53 = 2n ** 53n;
const TWO63 = 2n ** 63n;

/** Up to 15 significant digits always survive a double; more are for after the fix of `longMantissas`. */
const MANTISSA = PENDING_FIX.longMantissas ? 10n ** 15n - 1n : 10n ** 22n;

/** Exponent forms of one value: `1.5e3`, `15E+002`, `1500.000`, `0.0015e6` … (JSON allows them all). */
const respelled = fc
  .tuple(fc.bigInt({ min: -MANTISSA, max: MANTISSA }), fc.integer({ min: -30, max: 30 }), fc.nat(3))
  .map(([digits, shift, zeros]) => {
    const exp = `${shift < 0 ? '-' : '+'}${'0'.repeat(zeros)}${Math.abs(shift)}`;
    return `${digits}${zeros > 0 ? `.${'0'.repeat(zeros)}` : ''}e${exp}`;
  });

const NEG_ZERO = PENDING_FIX.negativeZero ? '0' : '-0';

/** A JSON number's text (`overflow`: also numbers beyond a double's range). */
const numberTextOf = (overflow: boolean, negZero = NEG_ZERO): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String) },
    { weight: 2, arbitrary: fc.maxSafeInteger().map(String) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.bigInt({ min: TWO53 + 1n, max: TWO63 - 1n }), fc.bigInt({ min: -TWO63, max: -TWO53 - 1n }))
        .map(String),
    },
    { weight: 1, arbitrary: fc.bigInt({ min: TWO63, max: 10n ** 40n }).map(String) },
    {
      weight: 3,
      arbitrary: fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((d) => (Object.is(d, -0) ? negZero : String(d))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        negZero,
        '0.0',
        `${negZero}.0`,
        '5e-324',
        '2.2250738585072014e-308',
        '1.7976931348623157e308',
      ),
    },
    { weight: 1, arbitrary: respelled },
    ...(overflow ? [{ weight: 1, arbitrary: fc.constantFrom('1e400', '-2.5E+999', '1e0400') }] : []),
    ...(PENDING_FIX.underflow ? [] : [{ weight: 1, arbitrary: fc.constantFrom('1e-400', '-3e-999') }]),
  );

export const numberText = numberTextOf(true);
/** Inside arrays (JSON text in one cell), while `nestedOverflow` is pending, numbers a double holds. */
const nestedNumberText = numberTextOf(
  !PENDING_FIX.nestedOverflow,
  PENDING_FIX.nestedNegativeZero ? '0' : NEG_ZERO,
);

/**
 * Stands for one byte that is not UTF-8 (0xFF) in a body sent as UTF-8: the serializer puts the byte
 * where this noncharacter's UTF-8 is; what a reader should see is U+FFFD (`expectedText`).
 */
export const INVALID_BYTE = '\uFDD0';

const DATES = [
  '2026-11-05',
  '2026-02-30',
  '0000-00-00',
  '2026-11-20T10:00:00Z',
  '2026-11-20T10:00:00.123456+01:00',
  '2026-11-20T10:00:00',
  '12',
  '-5',
  '=1+2',
  'true',
  'null',
  '',
  ' ',
  '"',
  ',',
  '\r\n',
  '\u0000',
  '\t@x',
];

/** A string: any code point (astral, controls), date- and number-like text, lone surrogates, bad bytes. */
const stringOf = (badText: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 8 }) },
    { weight: 2, arbitrary: fc.constantFrom(...DATES) },
    ...(PENDING_FIX.loneSurrogates || !badText
      ? []
      : [{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) }]),
    ...(PENDING_FIX.invalidBytes || !badText
      ? []
      : [{ weight: 1, arbitrary: fc.constant(`ab${INVALID_BYTE}c`) }]),
  );
export const stringArb = stringOf(true);
/** Inside JSON text (arrays, objects over the key bound), while `nestedJsonText` is pending: valid text. */
const nestedStringArb = stringOf(!PENDING_FIX.nestedJsonText);

const leafOf = (numbers: fc.Arbitrary<string>, strings: fc.Arbitrary<string>): fc.Arbitrary<Exact> =>
  fc.oneof(
    { weight: 3, arbitrary: numbers.map((num) => ({ num })) },
    { weight: 3, arbitrary: strings },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
const leaf = leafOf(numberText, stringArb);
const nestedLeaf = leafOf(nestedNumberText, nestedStringArb);

/** Objects with unique keys (a key repeated in one object is not what these properties test). */
const objectOf = (value: fc.Arbitrary<Exact>, maxKeys: number) =>
  fc
    .uniqueArray(fc.tuple(keyArb, value), { maxLength: maxKeys, selector: ([k]) => k })
    .map((entries): Exact => ({ entries }));

/** Data used as keys: per-country counts of 101–400 keys (more than the default bound of 100). */
const breakdown: fc.Arbitrary<Exact> = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 101, maxLength: 400 })
  .chain((keys) =>
    fc.tuple(...keys.map(() => fc.nat(1_000_000))).map(
      (counts): Exact => ({
        entries: keys.map((k, i) => [k, { num: String(counts[i]) }] as const),
      }),
    ),
  );

/** Any JSON value up to three levels of objects and arrays. */
export const valueArb: fc.Arbitrary<Exact> = fc.letrec<{ value: Exact }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    // JSON text may hold any value below here (arrays; objects over the key bound): see nestedOverflow
    { weight: 12, arbitrary: nestedLeaf },
    ...(PENDING_FIX.wideObjects ? [] : [{ weight: 1, arbitrary: breakdown }]),
    { weight: 2, arbitrary: fc.array(fc.oneof(nestedLeaf, objectOf(nestedLeaf, 2)), { maxLength: 3 }) },
    { weight: 4, arbitrary: objectOf(tie('value'), 4) },
  ),
})).value;

/** What a metric key may hold; `undefined` = the key is absent. */
const metricValue: fc.Arbitrary<Exact | undefined> = fc.oneof(
  { weight: 6, arbitrary: numberText.map((num): Exact => ({ num })) },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.boolean(), fc.constantFrom('n/a', ''), fc.array(nestedLeaf, { maxLength: 2 })),
  },
  ...(PENDING_FIX.numericStrings ? [] : [{ weight: 2, arbitrary: numberText }]),
);

/** An identifying field's value: text or an integer, or absent. */
const idValue: fc.Arbitrary<Exact | undefined> = fc.oneof(
  { weight: 3, arbitrary: stringArb },
  { weight: 3, arbitrary: fc.maxSafeInteger().map((n): Exact => ({ num: String(n) })) },
  ...(PENDING_FIX.longIds
    ? []
    : [
        {
          weight: 2,
          arbitrary: fc.bigInt({ min: TWO53, max: 10n ** 20n }).map((n): Exact => ({ num: String(n) })),
        },
      ]),
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** One row of `route`: its id field, other fields with hostile keys, and a `metrics` object (or not). */
export function rowArb(route: Route, metricNames: readonly string[]): fc.Arbitrary<Exact> {
  const idKey = ROUTES[route];
  const fieldKeys = keyArb.filter((k) => k !== idKey && k !== 'metrics');
  const metrics = fc
    .tuple(
      fc.tuple(...metricNames.map(() => metricValue)),
      fc.uniqueArray(fc.tuple(keyArb, metricValue), { maxLength: 2, selector: ([k]) => k }),
    )
    .map(([asked, extra]) => {
      const entries = new Map<string, Exact>();
      metricNames.forEach((m, i) => {
        const v = asked[i];
        if (v !== undefined) entries.set(m, v);
      });
      for (const [k, v] of extra) if (v !== undefined && !entries.has(k)) entries.set(k, v);
      return { entries: [...entries] } as Exact;
    });
  return fc
    .record({
      id: idValue,
      fields: fc.uniqueArray(fc.tuple(fieldKeys, fc.oneof({ weight: 6, arbitrary: valueArb }, leaf)), {
        maxLength: 4,
        selector: ([k]) => k,
      }),
      metrics: fc.oneof({ weight: 8, arbitrary: metrics }, { weight: 1, arbitrary: fc.constant(null) }),
      idFirst: fc.boolean(),
    })
    .map(({ id, fields, metrics, idFirst }): Exact => {
      const idEntry: [string, Exact][] = id === undefined ? [] : [[idKey, id]];
      const entries = [...(idFirst ? idEntry : []), ...fields, ['metrics', metrics] as [string, Exact]];
      if (!idFirst) entries.push(...idEntry);
      return { entries };
    });
}

export const CHARSETS = ['none', 'utf-8', 'UTF-8', 'utf-8-bom', 'iso-8859-1', 'utf-16le'] as const;
export type Charset = (typeof CHARSETS)[number];
const UTF8_ONLY: readonly Charset[] = ['none', 'utf-8', 'UTF-8'];

/** One run's answer: its rows, where pages end, how each body is cut into writes, its charset. */
export interface RunAnswer {
  readonly rows: readonly Exact[];
  /** Page boundaries (row indexes, sorted; repeats make empty pages). */
  readonly breaks: readonly number[];
  /** Each body is written in pieces cut at these fractions of its length. */
  readonly cuts: readonly number[];
  readonly charset: Charset;
}

export function runAnswerArb(route: Route, metricNames: readonly string[], maxRows: number) {
  return fc
    .record({
      rows: fc.array(rowArb(route, metricNames), { maxLength: maxRows }),
      breaks: fc.array(fc.nat(maxRows), { maxLength: 3 }),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
      charset: fc.constantFrom(...(PENDING_FIX.charsets ? UTF8_ONLY : CHARSETS)),
    })
    .map(
      ({ rows, breaks, cuts, charset }): RunAnswer => ({
        rows,
        breaks: breaks.map((b) => Math.min(b, rows.length)).sort((a, b) => a - b),
        cuts: [...cuts].sort((a, b) => a - b),
        charset,
      }),
    );
}

/** A report and two runs of it (two consecutive windows), with the writer's sizes. */
export interface ExportCase {
  readonly route: Route;
  readonly metrics: readonly string[];
  readonly columnNames: 'snake_case' | 'api';
  /** Rows per row group: small, so the model grows mid-run and parts roll over. */
  readonly rowGroupRows: number;
  /** A part rolls over at this many bytes (small = many parts). */
  readonly maxPartBytes: number;
  /** `output.maxKeysPerObject` (null = the default): a nested object with more keys is JSON text. */
  readonly maxKeysPerObject: number | null;
  readonly runs: readonly [RunAnswer, RunAnswer];
}

export function exportCaseArb(maxRows = 8): fc.Arbitrary<ExportCase> {
  return fc
    .record({
      route: fc.constantFrom(...(Object.keys(ROUTES) as Route[])),
      metrics: fc.subarray([...METRIC_POOL], { minLength: 1 }),
      columnNames: fc.constantFrom('snake_case' as const, 'api' as const),
      rowGroupRows: fc.integer({ min: 1, max: 6 }),
      maxPartBytes: fc.constantFrom(512, 4096, 512 * 1024 * 1024),
      maxKeysPerObject: PENDING_FIX.wideObjects ? fc.constant(null) : fc.constantFrom(null, null, 1, 2, 3),
    })
    .chain((c) =>
      fc
        .tuple(runAnswerArb(c.route, c.metrics, maxRows), runAnswerArb(c.route, c.metrics, maxRows))
        .map((runs): ExportCase => ({ ...c, runs })),
    );
}
