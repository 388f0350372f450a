/**
 * The name of the config file inside each Lambda bundle: `cdk synth` writes the validated config
 * there (infra/constructs/exporter-function.ts) and the handlers read it at their first invocation
 * (functions/handlers/wiring.ts).
 */
export const BUNDLED_CONFIG_FILE = 'report-exporter.config.json';
