import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSink } from '#adapters/fs-sink';
import { type DemoResult, runDemo } from '#cli/commands/demo';
import { ManifestSchema } from '#core/manifest';
import { duckQuery, lit } from '../core/export/duck';

let dir: string;
let result: DemoResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'demo-'));
  // an earlier demo's outbox: replaced, not appended to
  await mkdir(join(dir, 'out', 'outbox'), { recursive: true });
  await writeFile(join(dir, 'out', 'outbox', '004-earlier-demo.eml'), 'old');
  result = await runDemo(join(dir, 'out'), new Date('2026-11-23T12:00:00Z'));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('demo', () => {
  it('runs both example schedules, two consecutive windows each, to succeeded manifests covering all nine routes', async () => {
    const sink = createFsSink(result.outDir);
    const manifestKeys = (await sink.list('exports/')).filter((k) => k.endsWith('manifest.json'));
    expect(manifestKeys).toHaveLength(4);
    expect(result.manifests.map((m) => `${m.scheduleId} ${m.window.start}..${m.window.end}`)).toEqual([
      'weekly-campaigns 2026-11-09..2026-11-15',
      'weekly-campaigns 2026-11-16..2026-11-22',
      'monthly-overview 2026-09-01..2026-09-30',
      'monthly-overview 2026-10-01..2026-10-31',
    ]);
    const routes = new Set<string>();
    for (const key of manifestKeys) {
      const manifest = ManifestSchema.parse(
        JSON.parse(new TextDecoder().decode((await sink.getObject(key)) ?? new Uint8Array())),
      );
      expect(manifest.status).toBe('succeeded');
      for (const r of manifest.reports) routes.add(r.route);
    }
    expect(routes.size).toBe(9);
  });

  it('writes Parquet, CSV and _SUCCESS for every report, and DuckDB reads each Parquet with the manifest row count', async () => {
    for (const m of result.manifests) {
      for (const r of m.reports) {
        const parquet = r.files.filter((f) => f.format === 'parquet');
        expect(parquet.length).toBeGreaterThan(0);
        expect(r.files.some((f) => f.format === 'csv')).toBe(true);
        const paths = parquet.map((f) => lit(join(result.outDir, f.key))).join(',');
        const [row] = await duckQuery(
          `SELECT count(*)::INT AS n FROM read_parquet([${paths}], union_by_name=true)`,
        );
        expect(row?.n, `${m.scheduleId}/${r.reportId}`).toBe(r.rowCount);
        for (const format of ['parquet', 'csv']) {
          const folder = join(
            result.outDir,
            `exports/${m.scheduleId}/${r.reportId}/${format}/dt=${m.window.end}`,
          );
          expect(await readdir(folder)).toContain('_SUCCESS');
        }
      }
    }
  });

  it("writes the latest windows' emails, stakeholders' and operators', as .eml and .html into out/outbox, replacing an earlier demo's", async () => {
    const files = (await readdir(join(result.outDir, 'outbox'))).sort();
    expect(files).not.toContain('004-earlier-demo.eml');
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(4);
    expect(files.filter((f) => f.endsWith('.html'))).toEqual([
      '001-weekly-campaign-performance-2026-11-16-2026-11-22.html',
      '002-weekly-campaign-performance-2026-11-16-2026-11-22-run-details.html',
      '003-monthly-account-overview-2026-10-01-2026-10-31.html',
      '004-monthly-account-overview-2026-10-01-2026-10-31-run-details.html',
    ]);
  });

  it('shows real changes against the earlier window in the weekly email (▲ or ▼, naming 9–15 Nov)', async () => {
    const html = await readFile(
      join(result.outDir, 'outbox', '001-weekly-campaign-performance-2026-11-16-2026-11-22.html'),
      'utf8',
    );
    // the compared window is kept on one line (a no-wrap span)
    expect(html).toMatch(
      /[▲▼] [+-][\d,]+ \([+-]\d+\.\d%\) <span style="white-space:nowrap">vs 9–15 Nov<\/span>/,
    );
    expect(html).not.toContain('no earlier run');
  });

  it('draws the monthly over-time report as 31 bars in date order', async () => {
    const html = await readFile(
      join(result.outDir, 'outbox', '003-monthly-account-overview-2026-10-01-2026-10-31.html'),
      'utf8',
    );
    const days = [...html.matchAll(/valign="bottom" title="(\d+) Oct: /g)].map((m) => Number(m[1]));
    expect(days).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
  });
  it('shows a real brand’s week: no attack strings, no guarded cells and no repeated creator id in its files', async () => {
    const sink = createFsSink(result.outDir);
    const csvs = (await sink.list('exports/')).filter((k) => k.endsWith('.csv'));
    expect(csvs.length).toBeGreaterThan(0);
    for (const key of csvs) {
      const text = await readFile(join(result.outDir, key), 'utf8');
      expect(text, key).not.toMatch(/<script|&amp;|HYPERLINK|creator_id__2/);
      // no cell the spreadsheet guard had to defuse (a leading ' before = + - @)
      expect(text, key).not.toMatch(/(^|,)"?'[=+\-@]/m);
    }
  });
});

describe("the README's demo block", () => {
  it('shows the counts this demo prints for the latest weekly window', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const block = readme.slice(readme.indexOf('$ npx report-exporter demo'));
    const header = /^(\S+) (\S+)\.\.(\S+): succeeded$/m.exec(block);
    const shown = [
      ...block.slice(0, block.indexOf('Written under')).matchAll(/^ {2}(\S+) +(\d+) rows, (\d+) files$/gm),
    ];
    expect(header).not.toBeNull();
    expect(shown.length).toBeGreaterThan(0);
    const manifest = result.manifests.find(
      (m) => m.scheduleId === header?.[1] && m.window.start === header?.[2] && m.window.end === header?.[3],
    );
    for (const [, id, rows, files] of shown) {
      const r = manifest?.reports.find((x) => x.reportId === id);
      expect(`${id} ${r?.rowCount} rows, ${r?.files.length} files`).toBe(
        `${id} ${rows} rows, ${files} files`,
      );
    }
  });
});
