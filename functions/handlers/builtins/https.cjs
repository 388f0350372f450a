// node:https for the Lambda bundles and the CLI's without an ES import: both builds alias it here
// from the one list, infra/constructs/builtin-shims.json. Not require('node:https'): the alias would
// resolve it to this file.
module.exports = process.getBuiltinModule('node:https');
