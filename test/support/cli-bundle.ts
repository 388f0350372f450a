/**
 * Vitest global setup: builds the CLI's bundle (`dist/cli.mjs`) once before the tests when a source
 * is newer than it, so the test files that spawn `report-exporter` at once do not each rebuild it
 * (`bin/report-exporter.mjs` would, to run what the sources say). Not a test file.
 */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  const script = new URL('../../scripts/build-cli.mjs', import.meta.url).pathname;
  execFileSync(process.execPath, [script, '--if-stale'], { stdio: 'inherit' });
}
