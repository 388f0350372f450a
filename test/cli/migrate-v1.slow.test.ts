import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/run-cli';

describe('report-exporter migrate-v1', () => {
  it('prints a paste-ready v2 report for each v1 URL, with what changed and what is dropped', async () => {
    const { code, stdout, stderr } = await runCli([
      'migrate-v1',
      'https://api.example.com/v1/reporting/campaign/performance?startDate=2024-01-01&endDate=2024-01-31&instanceIds[]=a&reportingGroupIds=7&page=2',
      'https://api.example.com/v1/reporting/influencer/performance?metrics=likes&campaignIds=c1,c2',
      '/v1/reporting/instance/details?instanceIds=i-1',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('# changed: path pluralized; metrics are required');
    expect(stdout).toContain(
      '# changed: reportingGroupIds: removed in v2. Kept in filters so that validate refuses',
    );
    expect(stdout).toContain('# campaigns-performance: does not validate yet — filters.reportingGroupIds:');
    expect(stdout).toContain('# creators-performance: validates as printed');
    expect(stdout).toContain('# dropped: page: v2 pages with a cursor');
    expect(stdout).toContain("# dropped: startDate/endDate: the schedule's window sets the dates");
    expect(stdout).toContain('# changed: influencer renamed to creators');
    const reports = parse(stdout) as { id: string; route: string; filters?: unknown }[];
    expect(reports.map((r) => r.route)).toEqual([
      'campaigns/performance',
      'creators/performance',
      'instances',
      'instances/performance',
    ]);
    expect(reports[1]?.filters).toEqual({ campaignIds: ['c1', 'c2'] });
  });

  it('exits 2 for a URL that is not a v1 reporting path, printing no snippet', async () => {
    const { code, stdout, stderr } = await runCli([
      'migrate-v1',
      '/v1/reporting/post/performance',
      'https://api.example.com/v2/posts/performance',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('"https://api.example.com/v2/posts/performance" is not a v1 reporting URL');
  });

  it('exits 2 without a URL', async () => {
    const { code, stderr } = await runCli(['migrate-v1']);
    expect(code).toBe(2);
    expect(stderr).toContain("missing required argument 'url'");
  });
});
