/**
 * The integrity check of a window in an output folder (not a test file): for every report folder of
 * the window, either the manifest's entry is `succeeded` and lists exactly the folder's parts (bytes,
 * sha256, rows; CSV rows counted), or `_SUCCESS` is absent; a folder holds nothing but `part-*` and
 * `_SUCCESS`. Returns the problems found (empty when consistent).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Manifest, ManifestSchema } from '#core/manifest';

export interface WindowOnDisk {
  readonly dir: string;
  readonly prefix: string;
  readonly scheduleId: string;
  readonly windowEnd: string;
}

export async function readManifest(w: WindowOnDisk): Promise<Manifest | null> {
  const path = join(w.dir, `${w.prefix}${w.scheduleId}/_manifests/dt=${w.windowEnd}/manifest.json`);
  const text = await readFile(path, 'utf8').catch(() => null);
  return text === null ? null : ManifestSchema.parse(JSON.parse(text));
}

export async function windowProblems(w: WindowOnDisk): Promise<string[]> {
  const problems: string[] = [];
  const manifest = await readManifest(w);
  const root = join(w.dir, w.prefix, w.scheduleId);
  const reports = (await readdir(root).catch(() => [] as string[])).filter((n) => !n.startsWith('_'));
  for (const reportId of reports) {
    const entry = manifest?.reports.find((r) => r.reportId === reportId);
    for (const format of ['csv', 'parquet'] as const) {
      const rel = `${w.prefix}${w.scheduleId}/${reportId}/${format}/dt=${w.windowEnd}/`;
      const names = await readdir(join(w.dir, rel)).catch(() => null);
      if (names === null) continue;
      const odd = names.filter((n) => n !== '_SUCCESS' && !/^part-\d{5}\.(csv|parquet)$/.test(n));
      if (odd.length > 0) problems.push(`${rel}: unexpected files ${odd.join(', ')}`);
      const success = names.includes('_SUCCESS');
      if (entry?.status !== 'succeeded') {
        if (success)
          problems.push(`${rel}: _SUCCESS beside a manifest entry that is ${entry?.status ?? 'absent'}`);
        continue;
      }
      const files = entry.files.filter((f) => f.format === format);
      const parts = names.filter((n) => n.startsWith('part-')).map((n) => rel + n);
      const listed = files.map((f) => f.key).sort();
      if (JSON.stringify(parts.sort()) !== JSON.stringify(listed)) {
        problems.push(`${rel}: parts ${parts.join(',')} but the manifest lists ${listed.join(',')}`);
        continue;
      }
      let rows = 0;
      for (const f of files) {
        const body = await readFile(join(w.dir, f.key));
        if (body.byteLength !== f.bytes)
          problems.push(`${f.key}: ${body.byteLength} bytes, manifest ${f.bytes}`);
        const sha = createHash('sha256').update(body).digest('hex');
        if (sha !== f.sha256) problems.push(`${f.key}: sha256 differs from the manifest`);
        if (format === 'csv') {
          const lines = csvRecords(body.toString('utf8')) - 1;
          if (lines !== f.rows) problems.push(`${f.key}: ${lines} rows, manifest ${f.rows}`);
        }
        rows += f.rows;
      }
      if (rows !== entry.rowCount) problems.push(`${rel}: ${rows} rows in parts, rowCount ${entry.rowCount}`);
    }
  }
  return problems;
}

/**
 * Every file under the output folder's temporary and staging areas (empty after a complete run), but
 * a released lock's last generation (`<n>.free` in `.tmp/lock-gens/`: taking a lock over never deletes it).
 */
export async function leftovers(w: WindowOnDisk): Promise<string[]> {
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const out: string[] = [];
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) out.push(...(await walk(p)));
      else if (!/\/lock-gens\/[0-9a-f]+\/\d{12}\.free$/.test(p)) out.push(p);
    }
    return out;
  };
  return [
    ...(await walk(join(w.dir, '.tmp'))),
    ...(await walk(join(w.dir, w.prefix, w.scheduleId, '_staging'))),
  ];
}

/** Records of an RFC 4180 text (CRLF ends a record unless inside a quoted field). */
export function csvRecords(text: string): number {
  let records = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '\r' && text[i + 1] === '\n') records += 1;
  }
  return records;
}
