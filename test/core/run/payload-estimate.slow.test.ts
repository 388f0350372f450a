import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig, validateConfig } from '#core/config/load';
import { ExporterError } from '#core/errors';
import { assertWithinLimits } from '#core/limits';
import { SAFE_PAYLOAD_BYTES } from '#core/run/payload';
import { estimatePayloads } from '#core/run/payload-estimate';
import { buildApp } from '../../../infra/build-app';
import { runCli } from '../../support/run-cli';

/** A schedule of `reports` posts reports, each showing the top `topN` by likes. */
function configOf(reports: number, topN: number) {
  return {
    api: { baseUrl: 'https://reporting.example.com', credentialsSecret: 'reporting/v2/client' },
    schedules: [
      {
        id: 'big',
        cron: '0 8 ? * MON *',
        window: 'yesterday',
        reports: Array.from({ length: reports }, (_, i) => ({
          id: `posts-${i}`,
          route: 'posts/performance',
          metrics: ['likes', 'comments', 'shares', 'views'],
          summary: { kpis: ['likes', 'comments'], topBy: 'likes', topN },
        })),
      },
    ],
  };
}

describe('the largest state payload of a config', () => {
  it('the shipped example fits with room to spare', () => {
    const config = parseConfig(readFileSync(new URL('../../../reports.yaml', import.meta.url), 'utf8'));
    for (const e of estimatePayloads(config)) expect(e.bytes).toBeLessThan(SAFE_PAYLOAD_BYTES / 2);
    expect(() => assertWithinLimits(config)).not.toThrow();
  });

  it('grows with the reports and their top rows', () => {
    const [small] = estimatePayloads(validateConfig(configOf(2, 10)));
    const [more] = estimatePayloads(validateConfig(configOf(4, 10)));
    const [wider] = estimatePayloads(validateConfig(configOf(2, 100)));
    expect(more?.bytes).toBeGreaterThan(small?.bytes ?? Infinity);
    expect(wider?.bytes).toBeGreaterThan(small?.bytes ?? Infinity);
  });

  it('refuses 40 reports at topN 100 (over 256 KB), naming the schedule and what to change', () => {
    const config = validateConfig(configOf(40, 100));
    let err: unknown;
    try {
      assertWithinLimits(config, 'big.yaml');
    } catch (e: unknown) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExporterError);
    expect((err as ExporterError).code).toBe('CONFIG_INVALID');
    expect((err as ExporterError).message).toMatch(
      /^big\.yaml has 1 problem for a deployment:\n {2}schedules\[0\]\.reports: a run of schedule "big" could pass ~\d+ KB between its steps, over the 224 KB this exporter allows of Step Functions' 256 KB payload limit; the largest is report "posts-\d+" \(~\d+ KB\); lower summary\.topN, show fewer KPIs, or split the reports over more schedules$/,
    );
  });

  it('cdk synth (buildApp) refuses it before synthesizing anything', () => {
    expect(() => buildApp({ config: validateConfig(configOf(40, 100)), nag: false })).toThrow(
      /could pass ~\d+ KB/,
    );
  });

  it('validate exits 2 for it and 0 for a config that fits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payload-'));
    writeFileSync(join(dir, 'big.yaml'), stringify(configOf(40, 100)));
    writeFileSync(join(dir, 'ok.yaml'), stringify(configOf(4, 10)));
    const big = await runCli(['validate', '--config', join(dir, 'big.yaml')]);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('over the 224 KB this exporter allows');
    const ok = await runCli(['validate', '--config', join(dir, 'ok.yaml')]);
    expect(ok.code).toBe(0);
  });
});
