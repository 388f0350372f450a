import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeConfig } from '../support/large-config';
import { runCli } from '../support/run-cli';

const BAD = `
api:
  baseUrl: http://reporting.example.com
  credentialsSecret: reporting/v2/client
schedules:
  - id: weekly
    cron: "0 8 * * *"
    timezone: Europe/Berln
    window: last-7-days
    reports:
      - id: a
        route: /v1/reporting/influencer/performance
      - id: b
        route: campaigns/performance
        filters: { platform: instagram, contentType: instagram_reel }
`;

describe('report-exporter validate', () => {
  it('warns with "did you mean" for a metric name close to a known one, and still exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    const file = join(dir, 'reports.yaml');
    writeFileSync(
      file,
      `api: { baseUrl: https://reporting.example.com, credentialsSecret: s }
schedules:
  - id: weekly
    cron: "0 8 ? * MON *"
    window: last-7-days
    reports:
      - { id: a, route: posts/performance, metrics: [likes, coments, paidImpresions, someNewMetric] }
`,
    );
    const { code, stdout, stderr } = await runCli(['validate', '--config', file]);
    expect(code).toBe(0);
    // the validity line, then the request-cost estimate of the one schedule (lookback 0)
    expect(stdout.split('\n')[0]).toBe(`${file} is valid: 1 schedule(s), 1 report(s)`);
    expect(stdout).toContain(
      'weekly: 1 window (lookback 0) × 1 report(s) = at least 1 data requests per run',
    );
    expect(stderr.trim().split('\n')).toEqual([
      'warning: schedules[0].reports[0].metrics[1]: metric "coments" is not a name we know — did you mean "comments"? (a warning only: the API may know names we do not; `report-exporter check` asks it)',
      'warning: schedules[0].reports[0].metrics[2]: metric "paidImpresions" is not a name we know — did you mean "paidImpressions"? (a warning only: the API may know names we do not; `report-exporter check` asks it)',
    ]);
  });

  it('exits 0 for the example config and says what it holds', async () => {
    const { code, stdout } = await runCli(['validate', '--config', 'reports.yaml']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'reports.yaml is valid: 2 schedule(s), 9 report(s)',
        "  deployment: 2 Scheduler schedule(s) (one per distinct cron + timezone), at most 62 of CloudFormation's 500 resources per stack, template at most ~124 KB of 1000 KB",
        '  weekly-campaigns: 1 window (lookback 0) × 4 report(s) = at least 4 data requests per run; its 3 paged report(s) add a request per 500 rows beyond each first page',
        '  monthly-overview: 1 window (lookback 0) × 5 report(s) = at least 5 data requests per run; its 2 paged report(s) add a request per 500 rows beyond each first page',
        '',
      ].join('\n'),
    );
  });

  it("exits 2 naming CloudFormation's resource limit, the numbers and how to split, for schedules at 500 distinct times", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'validate-')), 'over.yaml');
    writeFileSync(file, JSON.stringify(largeConfig({ schedules: 500, reports: 1, distinctTimes: true })));
    const { code, stderr } = await runCli(['validate', '--config', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "schedules: its 500 schedules fire at 500 distinct times (cron + timezone), one Scheduler schedule each: the stack would hold up to 560 resources, over CloudFormation's 500 per stack (at most 440 distinct times fit one stack); split the schedules over several config files and deploy each as its own stack: cdk deploy -c config=part-1.yaml -c stackName=ReportExporter1",
    );
  });

  it('states the data requests per run, growing with lookback + 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'validate-')), 'lookback.yaml');
    const example = readFileSync('reports.yaml', 'utf8');
    for (const n of [1, 7]) {
      writeFileSync(file, example.replace('window: last-7-days', `window: last-7-days\n    lookback: ${n}`));
      const { code, stdout } = await runCli(['validate', '--config', file]);
      expect(code).toBe(0);
      expect(stdout).toContain(
        `weekly-campaigns: ${n + 1} windows (lookback ${n}) × 4 report(s) = at least ${4 * (n + 1)} data requests per run`,
      );
      expect(stdout).toContain(
        'monthly-overview: 1 window (lookback 0) × 5 report(s) = at least 5 data requests',
      );
    }
  });

  it('exits 2 and lists every problem by path on stderr', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'validate-')), 'bad.yaml');
    writeFileSync(file, BAD);
    const { code, stdout, stderr } = await runCli(['validate', '--config', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file} has 6 problems:`);
    for (const line of [
      'api.baseUrl: baseUrl must use https',
      'schedules[0].cron: an EventBridge cron has 6 fields',
      'schedules[0].timezone: unknown timezone "Europe/Berln"',
      'schedules[0].reports[0].route: "/v1/reporting/influencer/performance" is a v1 path; use route "creators/performance"',
      'schedules[0].reports[1].metrics: route "campaigns/performance" requires metrics',
      'schedules[0].reports[1].filters: platform and contentType are mutually exclusive',
    ]) {
      expect(stderr).toContain(line);
    }
  });

  it('with problems, still gives every "did you mean" hint in the same pass', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'validate-')), 'bad.yaml');
    writeFileSync(
      file,
      `api: { baseUrl: https://reporting.example.com, credentialsSecret: s }
schedules:
  - id: weekly
    cron: "0 8 ? * MON"
    window: last-7-days
    reports:
      - { id: a, route: posts/performance, metrics: [likes, coments] }
`,
    );
    const { code, stdout, stderr } = await runCli(['validate', '--config', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'schedules[0].cron: an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got 5: "0 8 ? * MON"; the year field is missing: "cron(0 8 ? * MON *)" runs every year',
    );
    expect(stderr).toContain(
      'warning: schedules[0].reports[0].metrics[1]: metric "coments" is not a name we know — did you mean "comments"?',
    );
  });

  it('--strict fails on a metric outside the valid set the API listed (kept beside the config); without it, a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    const file = join(dir, 'reports.yaml');
    writeFileSync(
      file,
      `api: { baseUrl: https://reporting.example.com, credentialsSecret: s }
schedules:
  - id: weekly
    cron: "0 8 ? * MON *"
    window: last-7-days
    reports:
      - { id: a, route: posts/performance, metrics: [likes, someNewMetric] }
`,
    );
    mkdirSync(join(dir, '.report-exporter'));
    writeFileSync(
      join(dir, '.report-exporter', 'known-metrics.json'),
      JSON.stringify({
        version: 1,
        routes: { 'posts/performance': { seenAt: '2026-11-20T08:00:00.000Z', names: ['likes', 'comments'] } },
      }),
    );
    const line =
      'schedules[0].reports[0].metrics[1]: metric "someNewMetric" is not among the valid metrics the API listed for posts/performance (in a 400 seen 2026-11-20)';
    const lax = await runCli(['validate', '--config', file]);
    expect(lax.code).toBe(0);
    expect(lax.stderr).toContain(`warning: ${line}`);
    const strict = await runCli(['validate', '--config', file, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`error: ${line}`);
    expect(strict.stdout).toBe('');
  });

  it('exits 2 for a config file that does not exist', async () => {
    const { code, stderr } = await runCli(['validate', '--config', 'no-such-file.yaml']);
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read config "no-such-file.yaml": ENOENT');
  });

  it('exits 2 for an unknown option', async () => {
    const { code, stderr } = await runCli(['validate', '--confg', 'reports.yaml']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown option '--confg'");
  });
});
