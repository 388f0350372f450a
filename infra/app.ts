/**
 * `cdk synth|deploy -c config=PATH` (default reports.yaml): reads and validates the config with the
 * same loader as `report-exporter validate`, so a bad config fails synthesis with the same path-named
 * problems (exit 2), then builds the app (with cdk-nag) and synthesizes it.
 */
import { App } from 'aws-cdk-lib';
import { loadConfig } from '#adapters/config-file';
import { isExporterError } from '#core/errors';
import { buildApp } from './build-app';

const app = new App();
const configContext: unknown = app.node.tryGetContext('config');
const configPath = typeof configContext === 'string' && configContext !== '' ? configContext : 'reports.yaml';

try {
  const config = await loadConfig(configPath);
  buildApp({ config, app, source: configPath });
  app.synth();
} catch (err: unknown) {
  if (!isExporterError(err)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 2;
}
