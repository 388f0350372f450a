// semver for the Lambda bundles (PACKAGE_SHIMS in infra/constructs/exporter-function.ts). Two
// dependencies of Powertools Tracer bring semver, and each calls only gte: cls-hooked on
// process.versions.node as it loads, and the X-Ray SDK's AWS SDK v2 patcher (captureAWS, never called:
// Tracer captures SDK v3 clients). The whole package is ~29 KiB of each minified bundle and builds its
// regular expressions as it loads; this is gte for release versions (test/handlers/bundle-shims.test.ts
// holds it to semver's own), and throws on anything else rather than guess.
function release(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(String(version).trim());
  if (!m)
    throw new TypeError(`semver (Lambda bundle): ${JSON.stringify(version)} is not a release version x.y.z`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

exports.gte = (a, b) => {
  const x = release(a);
  const y = release(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return true;
};
