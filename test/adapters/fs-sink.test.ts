import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockPath } from '#adapters/fs-conditional';
import { STALE_LOCK_MS } from '#adapters/fs-lock';
import { createFsSink } from '#adapters/fs-sink';
import { safeHost } from '#adapters/fs-temp';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fs-sink-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fs sink', () => {
  it('streams into a temp file outside the target folder and renames it into place on close, reporting bytes and sha256', async () => {
    const sink = createFsSink(dir);
    const w = sink.openWriter('a/b/part-00000.csv', 'text/csv');
    await w.write(new TextEncoder().encode('x,y\r\n'));
    await w.write(new TextEncoder().encode('1,2\r\n'));
    expect(await readdir(dir)).toEqual(['.tmp']);
    expect(await sink.list('')).toEqual([]);
    const written = await w.close();
    const bytes = await readFile(join(dir, 'a/b/part-00000.csv'));
    expect(written).toEqual({
      key: 'a/b/part-00000.csv',
      bytes: 10,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await readdir(join(dir, 'a/b'))).toEqual(['part-00000.csv']);
  });

  it('leaves nothing behind when an object is aborted', async () => {
    const sink = createFsSink(dir);
    const w = sink.openWriter('x/part.parquet', 'application/octet-stream');
    await w.write(new Uint8Array([1, 2, 3]));
    await w.abort();
    expect(await readdir(dir)).toEqual(['.tmp']);
    expect(await readdir(join(dir, '.tmp'))).toHaveLength(1);
    expect(await readdir(join(dir, '.tmp', (await readdir(join(dir, '.tmp')))[0] ?? ''))).toEqual([]);
  });

  it('removes the temporary folder of a dead process of this host when the next sink writes', async () => {
    const dead = join(dir, '.tmp', `${safeHost()}-999999999-0badc0de`);
    await mkdir(dead, { recursive: true });
    await writeFile(join(dead, 'abc-part-00000.csv'), 'half');
    const alive = join(dir, '.tmp', `${safeHost()}-${process.pid}-0000beef`);
    await mkdir(alive, { recursive: true });
    await createFsSink(dir).putObject('k', 'v', 'text/plain');
    const left = await readdir(join(dir, '.tmp'));
    expect(left).not.toContain(`${safeHost()}-999999999-0badc0de`);
    expect(left).toContain(`${safeHost()}-${process.pid}-0000beef`);
  });

  it('creates only when absent and swaps only the expected version (sha256 as the tag)', async () => {
    const sink = createFsSink(dir);
    const first = await sink.putIf('w/lease.json', 'one', 'application/json', { ifNoneMatch: '*' });
    expect(first).toBe(createHash('sha256').update('one').digest('hex'));
    expect(await sink.putIf('w/lease.json', 'two', 'application/json', { ifNoneMatch: '*' })).toBeNull();
    expect(
      await sink.putIf('w/lease.json', 'two', 'application/json', { ifMatch: 'f'.repeat(64) }),
    ).toBeNull();
    const second = await sink.putIf('w/lease.json', 'two', 'application/json', { ifMatch: first ?? '' });
    expect(await sink.getTagged('w/lease.json')).toEqual({
      body: new TextEncoder().encode('two'),
      etag: second,
    });
    expect(await sink.putIf('w/gone.json', 'x', 'application/json', { ifMatch: first ?? '' })).toBeNull();
  });

  describe('the lock of a swap', () => {
    /** Generation 1 of the lock a swap of `key` takes, owned by `pid` of this host, `ageMs` old. */
    const held = async (key: string, pid: number, ageMs = 0) => {
      const lock = lockPath(dir, join(dir, key));
      await mkdir(lock, { recursive: true });
      const generation = join(lock, '000000000001');
      await writeFile(generation, `${safeHost()}:${pid}:test`);
      const at = (Date.now() - ageMs) / 1000;
      await utimes(generation, at, at);
      return lock;
    };

    it('is taken over at once when a killed process of this host left it', async () => {
      const sink = createFsSink(dir);
      const tag = await sink.putIf('w/lease.json', 'one', 'application/json', { ifNoneMatch: '*' });
      const lock = await held('w/lease.json', 999_999_999);
      const started = Date.now();
      expect(
        await sink.putIf('w/lease.json', 'two', 'application/json', { ifMatch: tag ?? '' }),
      ).not.toBeNull();
      expect(Date.now() - started).toBeLessThan(STALE_LOCK_MS);
      // the dead generation was superseded and cleared; the new one is released
      expect(await readdir(lock)).toEqual(['000000000002.free']);
    });

    it('held by a live process, is waited for until released, or taken over once stale', async () => {
      const sink = createFsSink(dir);
      const tag = await sink.putIf('w/lease.json', 'one', 'application/json', { ifNoneMatch: '*' });
      const lock = await held('w/lease.json', process.pid);
      setTimeout(() => void rename(join(lock, '000000000001'), join(lock, '000000000001.free')), 50);
      const second = await sink.putIf('w/lease.json', 'two', 'application/json', { ifMatch: tag ?? '' });
      expect(second).not.toBeNull();
      await rm(lock, { recursive: true });
      await held('w/lease.json', process.pid, STALE_LOCK_MS + 1_000);
      expect(
        await sink.putIf('w/lease.json', 'three', 'application/json', { ifMatch: second ?? '' }),
      ).not.toBeNull();
      expect(await readFile(join(dir, 'w/lease.json'), 'utf8')).toBe('three');
    });
  });

  it('of many concurrent swaps from one version exactly one wins', async () => {
    const sink = createFsSink(dir);
    const tag = (await sink.putIf('w/m.json', 'v0', 'application/json', { ifNoneMatch: '*' })) ?? '';
    const others = Array.from({ length: 6 }, () => createFsSink(dir));
    const won = await Promise.all(
      others.map((s, i) => s.putIf('w/m.json', `v${i + 1}`, 'application/json', { ifMatch: tag })),
    );
    expect(won.filter((t) => t !== null)).toHaveLength(1);
  });

  it('moves an object over another and prunes the emptied folders', async () => {
    const sink = createFsSink(dir);
    await sink.putObject('stage/r/part-0.csv', 'new', 'text/csv');
    await sink.putObject('part/part-0.csv', 'old', 'text/csv');
    await sink.moveObject('stage/r/part-0.csv', 'part/part-0.csv');
    expect(await sink.list('')).toEqual(['part/part-0.csv']);
    expect(await readFile(join(dir, 'part/part-0.csv'), 'utf8')).toBe('new');
    expect((await readdir(dir)).sort()).toEqual(['.tmp', 'part']);
  });

  it('lists recursively and sorted, gets, puts and deletes', async () => {
    const sink = createFsSink(dir);
    await sink.putObject('p/dt=2/b', 'B', 'text/plain');
    await sink.putObject('p/dt=1/a', 'A', 'text/plain');
    await sink.putObject('q/c', 'C', 'text/plain');
    expect(await sink.list('p/')).toEqual(['p/dt=1/a', 'p/dt=2/b']);
    expect(new TextDecoder().decode((await sink.getObject('q/c')) ?? new Uint8Array())).toBe('C');
    expect(await sink.getObject('q/none')).toBeNull();
    await sink.deleteObjects(['p/dt=1/a', 'p/missing']);
    expect(await sink.list('')).toEqual(['p/dt=2/b', 'q/c']);
  });

  it('says before a run that an output folder cannot be written, naming it', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    const sink = createFsSink(join(file, 'out'));
    await expect(sink.ready?.()).rejects.toThrow(
      `cannot write to the output folder ${join(file, 'out')} (ENOTDIR): choose another --out or make it writable`,
    );
    await expect(createFsSink(join(dir, 'fresh')).ready?.()).resolves.toBeUndefined();
  });

  it('refuses a key that would escape the output folder', () => {
    const sink = createFsSink(dir);
    expect(() => sink.openWriter('../evil', 'text/plain')).toThrow(/escapes the output folder/);
  });
});
