import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#adapters/config-file';
import { parseConfig } from '#core/config/load';
import { ExporterError } from '#core/errors';
import { baseConfig, problemsOf } from './helpers';

function errorOf(fn: () => unknown): ExporterError {
  try {
    fn();
  } catch (err: unknown) {
    if (err instanceof ExporterError) return err;
    throw err;
  }
  throw new Error('expected an ExporterError');
}

describe('every problem in one go', () => {
  it('lists all problems of a config with many mistakes in one error', () => {
    const yaml = `
api:
  baseUrl: http://reporting.example.com
  credentialsSecret: s
schedules:
  - id: weekly
    cron: "0 8 * * *"
    timezone: Europe/Berln
    window: last-400-days
    reports:
      - id: a
        route: /v1/reporting/network/performance
      - id: b
        route: posts/performance
        filters: { platform: instagram, contentType: instagram_reel, reportingGroupIds: [7] }
      - id: b
        route: campaigns
        metrics: [likes]
`;
    const err = errorOf(() => parseConfig(yaml, 'bad.yaml'));
    expect(err.code).toBe('CONFIG_INVALID');
    const problems = (err.details as { problems: string[] }).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'api.baseUrl',
      'schedules[0].cron',
      'schedules[0].timezone',
      'schedules[0].window',
      'schedules[0].reports[0].route',
      'schedules[0].reports[1].filters.reportingGroupIds',
      'schedules[0].reports[1].metrics',
      'schedules[0].reports[1].filters',
      'schedules[0].reports[2].metrics',
      'schedules[0].reports[2].id',
    ]);
    expect(err.message).toMatch(/^bad\.yaml has 10 problems:\n {2}api\.baseUrl: /);
    for (const problem of problems) expect(err.message).toContain(problem);
  });

  it('says what is required when a section is missing', () => {
    expect(problemsOf({})).toEqual(['api: is required (object)', 'schedules: is required (array)']);
    expect(problemsOf({ ...baseConfig(), schedules: [] })).toEqual([
      'schedules: the config needs at least one schedule',
    ]);
  });

  it('rejects a document that is not a mapping', () => {
    expect(errorOf(() => parseConfig('- a\n- b\n')).message).toContain(
      '(config): Invalid input: expected object, received array',
    );
  });
});

describe('unknown keys', () => {
  it('names each unknown key at its own path and suggests the nearest known key', () => {
    const config = baseConfig();
    config.api.basUrl = 'https://x.example.com';
    config.shedules = [];
    const schedule = config.schedules[0];
    const report = schedule?.reports[0];
    if (schedule && report) {
      schedule.timeZone = 'UTC';
      report.metric = ['likes'];
      report.filters = { instanceId: ['i-1'] };
    }
    expect(problemsOf(config)).toEqual([
      'api.basUrl: unknown key "basUrl"; did you mean "baseUrl"?',
      'schedules[0].reports[0].filters.instanceId: unknown key "instanceId"; did you mean "instanceIds"?',
      'schedules[0].reports[0].metric: unknown key "metric"; did you mean "metrics"?',
      'schedules[0].timeZone: unknown key "timeZone"; did you mean "timezone"?',
      'shedules: unknown key "shedules"; did you mean "schedules"?',
    ]);
  });

  it('lists the known keys when nothing is close', () => {
    expect(problemsOf({ ...baseConfig(), output: { bucket: 'x' } })).toEqual([
      'output.bucket: unknown key "bucket"; known keys here: prefix, formats, maxRowsPerPart, maxKeysPerObject, columnNames, csvFormulaGuard, bucketName',
    ]);
  });
});

describe('YAML', () => {
  it('rejects invalid YAML with the file name, line and column', () => {
    const err = errorOf(() => parseConfig('api:\n  baseUrl: [https://x\nschedules: []\n', 'r.yaml'));
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toMatch(/^r\.yaml is not valid YAML:\n {2}r\.yaml: .*at line \d+, column \d+$/);
  });

  it('rejects a key written twice', () => {
    const err = errorOf(() => parseConfig('api: {}\napi: {}\n', 'r.yaml'));
    expect(err.message).toBe(
      'r.yaml is not valid YAML:\n  r.yaml: Map keys must be unique at line 2, column 1',
    );
  });

  it('rejects tabs used for indentation', () => {
    expect(errorOf(() => parseConfig('api:\n\tbaseUrl: x\n')).message).toContain('is not valid YAML');
  });
});

describe('loadConfig', () => {
  it('reads and validates a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'reports.yaml');
    writeFileSync(file, JSON.stringify(baseConfig()));
    const config = await loadConfig(file);
    expect(config.schedules[0]?.id).toBe('weekly');
  });

  it('reports a missing file as CONFIG_NOT_FOUND naming the path', async () => {
    const missing = join(tmpdir(), 'no-such-dir-xyz', 'reports.yaml');
    await expect(loadConfig(missing)).rejects.toMatchObject({
      code: 'CONFIG_NOT_FOUND',
      message: `cannot read config "${missing}": ENOENT; pass --config PATH`,
    });
  });
});
