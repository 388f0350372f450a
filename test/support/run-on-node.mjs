/**
 * Runs vitest on a Node.js taken from the npm registry (`node-<platform>-<arch>`, an optional
 * dependency of the small package in `dir`, installed by `npm ci --prefix <dir>`): that Node first
 * on the PATH, so the CLI and servers the tests start run on it too, and `TEST_NODE_MAJOR` set, so
 * the tests can check they really run on it. Without that Node it says what to install, and fails in
 * CI (`CI=true`). Exits with vitest's status.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @param {{ dir: string, major: number, args: string[] }} run `dir`: the package's folder; `major`:
 *   the Node major it installs; `args`: vitest's arguments after `run`.
 */
export function vitestOnNode({ dir, major, args }) {
  const binary = join(dir, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  if (!existsSync(binary)) {
    const prefix = relative(root, dir);
    process.stderr.write(
      `No Node ${major} for ${process.platform}-${process.arch} under ${prefix}: run "npm ci --prefix ${prefix}" ` +
        '(linux x64 and arm64 are packaged).\n',
    );
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  const result = spawnSync(binary, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      TEST_NODE_MAJOR: String(major),
      PATH: `${dirname(binary)}:${process.env.PATH ?? ''}`,
    },
  });
  process.exit(result.status ?? 1);
}
