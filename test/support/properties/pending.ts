/**
 * Input classes the export property tests keep out of their generators until the defect they hit is
 * fixed (issue 22's list, being fixed on another branch): one flag per defect, `true` = still kept out.
 * Each fix that lands flips its flag to `false` here, so the properties then generate that class too.
 * Not a test file.
 */
export const PENDING_FIX = {
  /** Numeric identifying fields beyond 2^53 fail the report ("Do not know how to serialize a BigInt"). */
  longIds: false,
  /** Totals leave out values beyond 2^53 silently; a metric null in every row gets a total of 0. */
  totals: false,
  /** A field named `dt` becomes a data column beside the `dt=` partition key. */
  dtField: false,
  /**
   * A loss guard's warning (ID_FIELDS_MISSING, METRIC_MISSING, …) replaces the writer's TYPE_BREAK /
   * LONG_INTEGER warnings: while pending, a raw companion without its warning is accepted on a report
   * where a guard fired (rows lacking ids and unsent metrics are too common an input to leave out).
   */
  mergedWarnings: false,
  /** An object with thousands of keys makes thousands of columns (no bound on columns per report). */
  wideObjects: false,
  /** Lone surrogates become U+FFFD in Parquet and CSV with no warning; JSON Lines keeps `\ud800`. */
  loneSurrogates: false,
  /** Invalid UTF-8 bytes become U+FFFD with no warning. */
  invalidBytes: false,
  /** Bodies declared in another charset than UTF-8 are read as UTF-8. */
  charsets: false,
  /** `1e-400` is written as 0 with no warning (underflow). */
  underflow: false,
  /** A metric sent as the string `"12"` is reported as a number too large for a double. */
  numericStrings: false,
  /**
   * Found by these properties (not in the list): a number with more significant digits than a
   * double holds, written with a fraction or an exponent (`11135355536484952e+9`,
   * `9.007199254740993e15`), is rounded with no warning in a double column, and in an int64 column its
   * raw companion holds the rounded value's text instead of the text sent.
   */
  longMantissas: false,
  /** Found here: `-0` keeps its sign in Parquet but is `0` in CSV, JSON Lines and string columns. */
  negativeZero: false,
  /** Found here: a number beyond a double's range inside an array (`[1e400]`) is written as a string (`["1e400"]`). */
  nestedOverflow: false,
  /**
   * Found here: in JSON text (an array, an object over the key bound) a lone surrogate or a replaced
   * byte stays a `\ud800` escape instead of U+FFFD (fixed).
   */
  nestedJsonText: false,
  /** Found here: in JSON text (an array, an object over the key bound) `-0` is written `0` (fixed). */
  nestedNegativeZero: false,
  /** Parts of one partition carry different column lists after the model grows mid-run. */
  partColumns: false,
} as const;
