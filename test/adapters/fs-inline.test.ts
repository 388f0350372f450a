/**
 * The folder sink's inline file-system calls (functions/adapters/fs-inline.ts) stand in for their
 * `node:fs/promises` twins. For any sequence of calls on any small tree, the two must give the same
 * result (the same value, or a rejection with the same code), leave the same tree behind, and fail
 * only by rejecting: the sink's callers catch failures as rejections (`readFile(p).catch(() => null)`),
 * so a synchronous throw would escape them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import * as inline from '#adapters/fs-inline';

type Api = typeof inline;
const root = mkdtempSync(join(tmpdir(), 'fs-inline-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Paths within a tree: files and folders, some nested, some never created. */
const name = fc.constantFrom('a', 'b', 'c.json', 'd/e', 'd/f.txt', 'a/g', 'missing/h');
const body = fc.constantFrom('', '{"x":1}', 'owner:123');

/** One call, as data: run against either API in a given folder. */
const call = fc.oneof(
  fc.record({ op: fc.constant('writeFile' as const), path: name, body }),
  fc.record({ op: fc.constant('readFile' as const), path: name, utf8: fc.boolean() }),
  fc.record({ op: fc.constant('mkdir' as const), path: name, recursive: fc.boolean() }),
  fc.record({ op: fc.constant('readdir' as const), path: name, types: fc.boolean() }),
  fc.record({ op: fc.constant('rename' as const), path: name, to: name }),
  fc.record({ op: fc.constant('link' as const), path: name, to: name }),
  fc.record({ op: fc.constant('rm' as const), path: name, force: fc.boolean(), recursive: fc.boolean() }),
  fc.record({ op: fc.constant('rmdir' as const), path: name }),
  fc.record({ op: fc.constant('stat' as const), path: name }),
);
type Call = typeof call extends fc.Arbitrary<infer C> ? C : never;

function run(api: Api, dir: string, c: Call): Promise<unknown> {
  const p = join(dir, c.path);
  switch (c.op) {
    case 'writeFile':
      return api.writeFile(p, new TextEncoder().encode(c.body));
    case 'readFile':
      return c.utf8 ? api.readFile(p, 'utf8') : api.readFile(p).then((b) => [...b]);
    case 'mkdir':
      return api
        .mkdir(p, { recursive: c.recursive })
        .then((made) => (made === undefined ? made : made.slice(dir.length)));
    case 'readdir':
      return c.types
        ? api.readdir(p, { withFileTypes: true }).then((es) => es.map((e) => [e.name, e.isFile()]).sort())
        : api.readdir(p).then((es) => es.sort());
    case 'rename':
      return api.rename(p, join(dir, c.to));
    case 'link':
      return api.link(p, join(dir, c.to));
    case 'rm':
      return api.rm(p, { force: c.force, recursive: c.recursive });
    case 'rmdir':
      return api.rmdir(p);
    case 'stat':
      return api.stat(p).then((s) => [s.isFile(), s.isDirectory(), s.size, s.nlink]);
  }
}

/** What a call came to: its value, or the code it was rejected with. */
async function outcome(api: Api, dir: string, c: Call): Promise<unknown> {
  let pending: Promise<unknown>;
  try {
    pending = run(api, dir, c);
  } catch (err: unknown) {
    return { threw: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
  return pending.then(
    (value) => ({ value }),
    (err: NodeJS.ErrnoException) => ({ rejected: err.code ?? err.message }),
  );
}

/** The tree under `dir`: each path with its contents (files) or a slash (folders). */
function tree(dir: string, at = ''): string[] {
  return readdirSync(join(dir, at))
    .sort()
    .flatMap((n) => {
      const rel = join(at, n);
      return statSync(join(dir, rel)).isDirectory()
        ? [`${rel}/`, ...tree(dir, rel)]
        : [`${rel}=${readFileSync(join(dir, rel), 'utf8')}`];
    });
}

/**
 * Runs `calls` through both APIs, each in a fresh folder named after `name`: they must agree call by
 * call (the inline one never throwing) and leave the same tree. Returns node:fs/promises' outcomes.
 */
async function replay(calls: Call[], name: string): Promise<unknown[]> {
  const a = join(root, `${name}-inline`);
  const b = join(root, `${name}-promises`);
  mkdirSync(a);
  mkdirSync(b);
  const outcomes: unknown[] = [];
  for (const c of calls) {
    const got = await outcome(inline, a, c);
    expect(got).not.toHaveProperty('threw');
    const want = await outcome(fsp as unknown as Api, b, c);
    expect(got).toEqual(want);
    outcomes.push(want);
  }
  expect(tree(a)).toEqual(tree(b));
  return outcomes;
}

let runs = 0;
describe('the inline file-system calls', () => {
  test.prop([fc.array(call, { minLength: 1, maxLength: 12 })], { numRuns: 150 })(
    'give what node:fs/promises gives, for any sequence of calls, and leave the same tree',
    async (calls) => {
      runs += 1;
      await replay(calls, String(runs));
    },
  );

  // The property's shrunk counterexample on Node 26 (Node 24's rmSync does the same): a recursive,
  // forced removal of a path under a file resolved inline, where node:fs/promises rejects ENOTDIR.
  it('reject a recursive, forced removal under a file with ENOTDIR, as node:fs/promises does', async () => {
    const outcomes = await replay(
      [
        { op: 'writeFile', path: 'a', body: '' },
        { op: 'rm', path: 'a/g', force: true, recursive: true },
      ],
      'under-a-file',
    );
    expect(outcomes[1]).toEqual({ rejected: 'ENOTDIR' });
  });
});
