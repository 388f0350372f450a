/**
 * `cdk synth|deploy -c config=PATH` (default reports.yaml): reads and validates the config with the
 * same loader as `report-exporter validate`, so a bad config fails synthesis with the same path-named
 * problems (exit 2) — the deployment's limits included —, refuses metric names the API itself listed
 * as not valid (the list `check`/`run` keep beside the config; `-c allowUnlistedMetrics=true`
 * overrides), then builds the app (with cdk-nag), synthesizes it and measures each template against
 * CloudFormation's limits (exit 2 with the numbers when over).
 */
import { App } from 'aws-cdk-lib';
import { loadConfig } from '#adapters/config-file';
import { knownMetricsPath, readKnownMetrics } from '#adapters/known-metrics-file';
import { assertNoUnlistedMetrics } from '#core/config/known-metrics';
import { isExporterError } from '#core/errors';
import { buildApp } from './build-app';
import { assumedRegionWarning, awsConfigText } from './region';
import { templateProblems, templateSizes } from './template-limits';

const app = new App();
const configContext: unknown = app.node.tryGetContext('config');
const configPath = typeof configContext === 'string' && configContext !== '' ? configContext : 'reports.yaml';

const regionWarning = assumedRegionWarning(process.env, awsConfigText(process.env));
if (regionWarning) process.stderr.write(`${regionWarning}\n`);

try {
  const config = await loadConfig(configPath);
  // a metric the API itself listed as not valid on its route would fail every run: refuse to deploy
  // it unless told to (the list is the one `report-exporter check`/`run` kept beside the config)
  const allow = String(app.node.tryGetContext('allowUnlistedMetrics') ?? '') === 'true';
  if (!allow)
    assertNoUnlistedMetrics(config, await readKnownMetrics(knownMetricsPath(configPath)), configPath);
  buildApp({ config, app, source: configPath });
  const problems = templateProblems(templateSizes(app.synth()));
  if (problems.length > 0) {
    process.stderr.write(
      `${configPath} does not fit one CloudFormation stack:\n  ${problems.join('\n  ')}\n`,
    );
    process.exitCode = 2;
  }
} catch (err: unknown) {
  if (!isExporterError(err)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 2;
}
