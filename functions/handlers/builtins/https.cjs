// node:https for the Lambda bundles and the CLI's without an ES import: see BUILTIN_SHIMS in
// infra/constructs/exporter-function.ts and scripts/build-cli.mjs. Not require('node:https'): the
// alias would resolve it to this file.
module.exports = process.getBuiltinModule('node:https');
