/**
 * What the Lambda bundles leave out. The packages they take from functions/handlers/builtins/
 * (PACKAGE_SHIMS in infra/constructs/exporter-function.ts): semver's `gte` must agree with semver's own
 * for any release versions, and the SDK's default credential chain, bundled with the shims as the CDK
 * app bundles it, must still find a Lambda's credentials in its environment, and say plainly when
 * there are none. And the SSM client, which Finalize's bundle carries only for a config that names an
 * `ssm:` recipient list (SSM_RECIPIENTS_DEFINE in infra/constructs/functions.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { build } from 'esbuild';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_SHIMS, PROJECT_ROOT } from '../../infra/constructs/exporter-function';
import { SSM_RECIPIENTS_DEFINE } from '../../infra/constructs/functions';

const require = createRequire(import.meta.url);
const shim = require('../../functions/handlers/builtins/semver.cjs') as {
  gte(a: string, b: string): boolean;
};
const providers = require('../../functions/handlers/builtins/credential-providers.cjs') as Record<
  string,
  () => () => Promise<unknown>
>;

const part = fc.nat({ max: 40 });
const release = fc.tuple(part, part, part).map((p) => p.join('.'));

describe('semver in the Lambda bundles', () => {
  test.prop([release, release], { numRuns: 500, seed: 30 })('gte agrees with semver.gte', (a, b) => {
    expect(shim.gte(a, b)).toBe(semver.gte(a, b));
    expect(shim.gte(`v${a}`, b)).toBe(semver.gte(`v${a}`, b));
  });

  it('answers cls-hooked, which asks at load whether this Node is at least 8.0.0', () => {
    expect(shim.gte(process.versions.node, '8.0.0')).toBe(true);
  });

  it('throws on what is not a release version rather than guess', () => {
    expect(() => shim.gte('1.2.3-beta.1', '1.2.3')).toThrow(/not a release version x\.y\.z/);
    expect(() => shim.gte('1.2', '1.2.3')).toThrow(/"1\.2" is not a release version/);
  });
});

describe('the credential links a Lambda never has', () => {
  it.each(['fromIni', 'fromSSO', 'fromProcess', 'fromTokenFile'])(
    '%s declines, so the chain goes on to its next link',
    async (name) => {
      const provider = providers[name];
      expect(provider, name).toBeTypeOf('function');
      await expect((provider as () => () => Promise<unknown>)()()).rejects.toMatchObject({
        tryNextLink: true,
        message: expect.stringMatching(/not in the Lambda bundle: .*AWS_ACCESS_KEY_ID/),
      });
    },
  );
});

describe("the SDK's default credential chain, bundled with the shims", () => {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-shims-'));
  const bundle = join(dir, 'chain.mjs');
  beforeAll(async () => {
    const entry = join(dir, 'entry.mjs');
    writeFileSync(
      entry,
      `import { defaultProvider } from '@aws-sdk/credential-provider-node';
try { const c = await defaultProvider()(); process.stdout.write(JSON.stringify({ accessKeyId: c.accessKeyId })); }
catch (e) { process.stdout.write(JSON.stringify({ error: e.message })); }`,
    );
    await build({
      entryPoints: [entry],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields: ['module', 'main'],
      nodePaths: [join(PROJECT_ROOT, 'node_modules')],
      alias: Object.fromEntries(
        PACKAGE_SHIMS.map((s) => s.split('=') as [string, string]).map(([k, v]) => [
          k,
          join(PROJECT_ROOT, v),
        ]),
      ),
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
      logLevel: 'error',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (env: Record<string, string>) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
    const r = spawnSync(process.execPath, [bundle], {
      encoding: 'utf8',
      // no instance metadata here: its link fails fast instead of waiting on a network that is not there
      env: { ...clean, HOME: dir, AWS_EC2_METADATA_DISABLED: 'true', ...env },
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { accessKeyId?: string; error?: string };
  };

  it('leaves the links a Lambda never has out of the bundle', () => {
    const text = readFileSync(bundle, 'utf8');
    expect(text).not.toContain('AssumeRoleWithWebIdentity');
    expect(text).not.toContain('credential-provider-ini - fromIni');
  });

  it("finds a Lambda's credentials in its environment", () => {
    expect(
      run({ AWS_ACCESS_KEY_ID: 'AKIDLAMBDA', AWS_SECRET_ACCESS_KEY: 's', AWS_SESSION_TOKEN: 't' }),
    ).toEqual({
      accessKeyId: 'AKIDLAMBDA',
    });
  });

  it('says there are none, past every link, when the environment has none', () => {
    expect(run({}).error).toMatch(/Could not load credentials from any providers/);
  });
});

describe("Finalize's bundle and the SSM client", () => {
  const finalize = async (define?: Record<string, string>) => {
    const r = await build({
      entryPoints: [join(PROJECT_ROOT, 'functions', 'handlers', 'finalize.ts')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: true,
      mainFields: ['module', 'main'],
      conditions: ['lambda', 'module'],
      logLevel: 'error',
      ...(define ? { define } : {}),
    });
    return r.outputFiles[0]?.text ?? '';
  };

  it('carries it for a config that names an ssm: recipient list, and leaves it out otherwise', async () => {
    const withSsm = await finalize();
    const without = await finalize({ ...SSM_RECIPIENTS_DEFINE });
    expect(withSsm).toContain('AmazonSSM');
    expect(without).not.toContain('AmazonSSM');
    expect(without.length).toBeLessThan(withSsm.length - 50_000);
  });
});
