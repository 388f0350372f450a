// The AWS SDK's default credential chain in the Lambda bundles (PACKAGE_SHIMS in
// infra/constructs/exporter-function.ts). A Lambda function's credentials are in its environment, the
// chain's first link (@aws-sdk/credential-provider-env, bundled); after it the chain tries shared
// config files, SSO, a credential process and a web identity token file, which a Lambda never has.
// Those four, with the STS, SSO and sign-in clients they bring, are ~85 KiB of each minified bundle,
// compiled at every cold start. Here each one declines, so the chain goes on to its container and
// instance metadata link (bundled) and then to its own "Could not load credentials" error.
// The chain reads only `tryNextLink` of a link's error (internalCreateChain in
// @aws-sdk/credential-provider-node).
const declines = (name) => () => async () => {
  const error = new Error(
    `${name} is not in the Lambda bundle: a Lambda function's credentials come from its environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)`,
  );
  error.name = 'CredentialsProviderError';
  error.tryNextLink = true;
  throw error;
};

exports.fromIni = declines('fromIni (shared config and credentials files)');
exports.fromSSO = declines('fromSSO (IAM Identity Center)');
exports.fromProcess = declines('fromProcess (credential_process)');
exports.fromTokenFile = declines('fromTokenFile (web identity token file)');
