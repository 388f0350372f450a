// node:http for the Lambda bundles without an ES import: see BUILTIN_SHIMS in
// infra/constructs/exporter-function.ts. Not require('node:http'): the alias would resolve it to this file.
module.exports = process.getBuiltinModule('node:http');
