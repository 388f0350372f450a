/**
 * Lookups in records whose keys come from outside (API rows, column and metric names). A plain
 * `record[key]` of "constructor", "toString" or "__proto__" finds Object's own members instead of
 * nothing; these helpers only ever see the record's own properties.
 */

/** `record[key]` when `key` is the record's own property, else undefined. */
export function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
