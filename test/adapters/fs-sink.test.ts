import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fs-sink-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fs sink', () => {
  it('streams into a temp file and renames it into place on close, reporting bytes and sha256', async () => {
    const sink = createFsSink(dir);
    const w = sink.openWriter('a/b/part-00000.csv', 'text/csv');
    await w.write(new TextEncoder().encode('x,y\r\n'));
    await w.write(new TextEncoder().encode('1,2\r\n'));
    expect(await readdir(join(dir, 'a/b'))).toEqual([expect.stringContaining('.tmp-')]);
    expect(await sink.list('a/')).toEqual([]);
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
    expect(await readdir(join(dir, 'x'))).toEqual([]);
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

  it('refuses a key that would escape the output folder', () => {
    const sink = createFsSink(dir);
    expect(() => sink.openWriter('../evil', 'text/plain')).toThrow(/escapes the output folder/);
  });
});
