/**
 * After `run`, `backfill` or `check`: the valid metric names a 400 listed are kept beside the config
 * (`.report-exporter/known-metrics.json`), so that a later `validate` suggests the right name for a
 * misspelled one. Failing to write the file never fails the command: it only costs a suggestion.
 */
import { knownMetricsPath, saveValidSets } from '#adapters/known-metrics-file';
import type { ValidSet } from '#core/config/known-metrics';

export async function rememberValidSets(configPath: string, sets: readonly ValidSet[]): Promise<void> {
  if (sets.length === 0) return;
  const path = knownMetricsPath(configPath);
  try {
    await saveValidSets(path, sets);
    const routes = [...new Set(sets.map((s) => s.route))].join(', ');
    process.stderr.write(
      `the API named the valid metrics of ${routes}: kept in ${path} for \`report-exporter validate\`'s "did you mean"\n`,
    );
  } catch (err: unknown) {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`warning: could not keep the valid metric names in ${path}: ${why}\n`);
  }
}
