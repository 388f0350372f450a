import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` stays quiet on every Node the package supports (issue 25): no installed package may
 * require a newer Node than the lowest version of each supported line, or npm prints EBADENGINE
 * warnings a user cannot act on. Read from the lock file, which records each package's `engines`.
 */
const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

/** The lowest version of each major line the `engines` range admits (`^20.19.0 || >=22.13.0` → 20.19.0, 22.13.0). */
function lowestOfEachLine(range: string): string[] {
  return range.split('||').map((part) => {
    const min = semver.minVersion(part.trim());
    if (min === null) throw new Error(`engines.node part "${part}" has no lowest version`);
    return min.version;
  });
}

describe('engines', () => {
  const supported = lowestOfEachLine(pkg.engines.node);

  it('states the Node lines the package supports', () => {
    expect(supported.length).toBeGreaterThan(0);
    for (const v of supported) expect(semver.satisfies(v, pkg.engines.node)).toBe(true);
  });

  it('installs no package that asks for a newer Node than any supported line (npm ci prints no EBADENGINE)', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || wanted === undefined) continue;
      for (const v of supported)
        if (!semver.satisfies(v, wanted, { includePrerelease: true }))
          refused.push(`${path.replace(/^node_modules\//, '')} wants node ${wanted}, not ${v}`);
    }
    expect(refused).toEqual([]);
  });

  // `npm run test:node22` and `npm run test:node26` start vitest on a Node from the npm registry and
  // say which major; a run that fell back to another Node would test nothing new.
  it('runs on the Node major version it was started for (TEST_NODE_MAJOR)', () => {
    const major = process.versions.node.split('.')[0];
    expect(major).toBe(process.env.TEST_NODE_MAJOR ?? major);
  });

  it('admits every Node the tests run on from the npm registry (test/node22, test/node26)', () => {
    for (const dir of ['node22', 'node26']) {
      const tested = JSON.parse(readFileSync(new URL(`test/${dir}/package.json`, root), 'utf8')) as {
        optionalDependencies: Record<string, string>;
      };
      for (const [name, version] of Object.entries(tested.optionalDependencies))
        expect(semver.satisfies(version, pkg.engines.node), `${dir}: ${name}@${version}`).toBe(true);
    }
  });
});
