/**
 * `z.record(z.string(), value)` for records keyed by names from outside (API fields, metric and column
 * names). zod builds a record's output by assignment, so a key `"__proto__"` is dropped — or, holding an
 * object, becomes the output's prototype — and a metric of that name silently loses its column, total
 * or top-row cell. This schema checks each value and returns a copy made by `Object.fromEntries`, whose
 * keys are all own data properties, whatever their names.
 */
import * as z from 'zod/mini';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function keyedRecord<T extends z.ZodMiniType>(value: T) {
  return z.pipe(
    z.custom<Record<string, unknown>>(isRecord, 'expected an object'),
    z.transform((input: Record<string, unknown>, ctx) => {
      const out: [string, z.output<T>][] = [];
      for (const [key, v] of Object.entries(input)) {
        const parsed = value.safeParse(v);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            ctx.issues.push({ code: 'custom', message: issue.message, path: [key, ...issue.path], input: v });
          }
          return z.NEVER;
        }
        out.push([key, parsed.data]);
      }
      return Object.fromEntries(out) as Record<string, z.output<T>>;
    }),
  );
}
