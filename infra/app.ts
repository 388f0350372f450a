/**
 * `cdk synth|deploy -c config=PATH` (default reports.yaml): reads and validates the config with the
 * same loader as `report-exporter validate`, so a bad config fails synthesis with the same path-named
 * problems (exit 2), refuses metric names the API itself listed as not valid (the list `check`/`run`
 * keep beside the config; `-c allowUnlistedMetrics=true` overrides), then builds the app (with cdk-nag)
 * and synthesizes it.
 */
import { App } from 'aws-cdk-lib';
import { loadConfig } from '#adapters/config-file';
import { knownMetricsPath, readKnownMetrics } from '#adapters/known-metrics-file';
import { assertNoUnlistedMetrics } from '#core/config/known-metrics';
import { isExporterError } from '#core/errors';
import { buildApp } from './build-app';

const app = new App();
const configContext: unknown = app.node.tryGetContext('config');
const configPath = typeof configContext === 'string' && configContext !== '' ? configContext : 'reports.yaml';

try {
  const config = await loadConfig(configPath);
  // a metric the API itself listed as not valid on its route would fail every run: refuse to deploy
  // it unless told to (the list is the one `report-exporter check`/`run` kept beside the config)
  const allow = String(app.node.tryGetContext('allowUnlistedMetrics') ?? '') === 'true';
  if (!allow)
    assertNoUnlistedMetrics(config, await readKnownMetrics(knownMetricsPath(configPath)), configPath);
  buildApp({ config, app, source: configPath });
  app.synth();
} catch (err: unknown) {
  if (!isExporterError(err)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 2;
}
