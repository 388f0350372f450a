import { describe, expect, it } from 'vitest';
import { baseConfig, problemsOf, valid } from './helpers';

describe('api.baseUrl', () => {
  it.each(['https://reporting.example.com', 'http://localhost:8080', 'http://127.0.0.1:4010'])(
    'accepts %s',
    (baseUrl) => {
      expect(problemsOf({ ...baseConfig(), api: { ...baseConfig().api, baseUrl } })).toEqual([]);
    },
  );

  it.each(['http://reporting.example.com', 'http://localhost.evil.example', 'ftp://reporting.example.com'])(
    'rejects %s: https only, http just for loopback',
    (baseUrl) => {
      expect(problemsOf({ ...baseConfig(), api: { ...baseConfig().api, baseUrl } })).toEqual([
        `api.baseUrl: baseUrl must use https (http is allowed only for localhost and 127.0.0.1), got "${baseUrl}"`,
      ]);
    },
  );

  it('rejects a relative URL', () => {
    expect(problemsOf({ ...baseConfig(), api: { ...baseConfig().api, baseUrl: 'reporting/v2' } })).toEqual([
      'api.baseUrl: baseUrl must be an absolute URL such as https://reporting.example.com',
    ]);
  });
});

describe('email', () => {
  const withEmail = (from: string, recipients: string[] = []) => {
    const config = baseConfig();
    config.email = { from };
    const schedule = config.schedules[0];
    if (schedule) schedule.recipients = recipients;
    return config;
  };

  it.each(['Reports <reports@example.com>', 'reports@example.com'])('accepts the sender %s', (from) => {
    expect(problemsOf(withEmail(from, ['a@example.com']))).toEqual([]);
  });

  it.each(['Reports', 'Reports <reports>', 'a@b@example.com', '<>'])('rejects the sender "%s"', (from) => {
    expect(problemsOf(withEmail(from))).toEqual([
      `email.from: "${from}" is not a valid sender; write "Reports <reports@example.com>" or "reports@example.com"`,
    ]);
  });

  it('rejects a sender with a line break (header injection)', () => {
    expect(problemsOf(withEmail('Reports <r@example.com>\r\nBcc: x@evil.example'))).toEqual([
      'email.from: the sender may not contain line breaks',
    ]);
  });

  it('rejects malformed recipients and line breaks, each by index', () => {
    const recipients = ['ok@example.com', 'not-an-address', 'a@example.com\nBcc: x@evil.example', 'b@'];
    expect(problemsOf(withEmail('reports@example.com', recipients))).toEqual([
      'schedules[0].recipients[1]: "not-an-address" is not a valid email address',
      'schedules[0].recipients[2]: email addresses may not contain line breaks',
      'schedules[0].recipients[3]: "b@" is not a valid email address',
    ]);
  });

  it('rejects recipients when the config has no email section', () => {
    const config = baseConfig();
    const schedule = config.schedules[0];
    if (schedule) schedule.recipients = ['a@example.com'];
    expect(problemsOf(config)).toEqual([
      'schedules[0].recipients: recipients are set but the config has no email.from; add an email section',
    ]);
  });

  it('accepts empty recipients without an email section', () => {
    const config = baseConfig();
    const schedule = config.schedules[0];
    if (schedule) schedule.recipients = [];
    expect(problemsOf(config)).toEqual([]);
  });
});

describe('output', () => {
  it('rejects an empty formats list', () => {
    expect(problemsOf({ ...baseConfig(), output: { formats: [] } })).toEqual([
      'output.formats: formats needs at least one of parquet, csv, jsonl',
    ]);
  });

  it('rejects a format listed twice and an unknown format', () => {
    expect(problemsOf({ ...baseConfig(), output: { formats: ['csv', 'csv'] } })).toEqual([
      'output.formats: formats lists a format twice',
    ]);
    expect(problemsOf({ ...baseConfig(), output: { formats: ['xlsx'] } })[0]).toMatch(
      /^output\.formats\[0\]: .*"parquet"\|"csv"/,
    );
  });

  it.each(['exports', '/exports/'])('rejects the prefix "%s"', (prefix) => {
    expect(problemsOf({ ...baseConfig(), output: { prefix } })).toEqual([
      `output.prefix: prefix must be empty or end with "/" and not start with "/" (e.g. "exports/"), got "${prefix}"`,
    ]);
  });
});

describe('ids', () => {
  it('rejects a schedule id used twice', () => {
    const config = baseConfig();
    config.schedules = [...config.schedules, ...baseConfig().schedules];
    expect(problemsOf(config)).toEqual(['schedules[1].id: schedule id "weekly" is used twice']);
  });

  it('rejects a report id used twice within a schedule but allows it in another schedule', () => {
    const config = baseConfig();
    const schedule = config.schedules[0];
    if (schedule) schedule.reports = [...schedule.reports, { id: 'campaigns', route: 'campaigns' }];
    expect(problemsOf(config)).toEqual([
      'schedules[0].reports[1].id: report id "campaigns" is used twice in this schedule',
    ]);
    const other = { ...baseConfig().schedules[0], id: 'other' };
    expect(problemsOf({ ...baseConfig(), schedules: [...baseConfig().schedules, other] })).toEqual([]);
  });

  it.each(['Weekly', 'weekly_report', '', 'a'.repeat(41)])('rejects the id "%s"', (id) => {
    const config = baseConfig();
    const schedule = config.schedules[0];
    if (schedule) schedule.id = id;
    expect(problemsOf(config)).toEqual([
      'schedules[0].id: schedule id must be 1–40 characters of a-z, 0-9 and "-"',
    ]);
  });
});

describe('window', () => {
  const withWindow = (window: string) => {
    const config = baseConfig();
    const schedule = config.schedules[0];
    if (schedule) schedule.window = window;
    return config;
  };

  it.each(['yesterday', 'last-1-days', 'last-366-days', 'previous-week', 'previous-month', 'month-to-date'])(
    'accepts %s',
    (window) => {
      expect(problemsOf(withWindow(window))).toEqual([]);
    },
  );

  it.each(['last-0-days', 'last-367-days', 'last-7-day', 'last-week', 'bogus'])('rejects %s', (window) => {
    expect(problemsOf(withWindow(window))).toEqual([
      `schedules[0].window: unknown window "${window}"; use yesterday, last-N-days (1 ≤ N ≤ 366), previous-week, previous-month or month-to-date`,
    ]);
  });
});

describe('defaults', () => {
  it('fills in every documented default', () => {
    const config = valid(baseConfig());
    expect(config.api).toMatchObject({
      arrayFormat: 'repeat',
      tokenRequest: 'json',
      cursorPath: 'nextCursor',
      pageSize: 500,
      concurrency: 4,
      timeoutSeconds: 30,
      maxRetries: 5,
    });
    expect(config.output).toEqual({
      prefix: 'exports/',
      formats: ['parquet', 'csv'],
      maxRowsPerPart: 1_000_000,
      maxKeysPerObject: 100,
      columnNames: 'snake_case',
      csvFormulaGuard: false,
    });
    expect(config.email).toBeUndefined();
    const schedule = config.schedules[0];
    expect(schedule).toMatchObject({ timezone: 'UTC', enabled: true, recipients: [] });
    expect(schedule?.reports[0]).toMatchObject({
      filters: { instanceIds: [], campaignIds: [] },
      params: {},
      summary: { kpis: [] },
      columns: {},
    });
    expect(valid({ ...baseConfig(), email: { from: 'r@example.com' } }).email?.attachCsvUpToMiB).toBe(5);
  });

  it('keeps values that are set', () => {
    const api = {
      ...baseConfig().api,
      arrayFormat: 'brackets',
      pageSize: 100,
      concurrency: 2,
      maxRetries: 0,
    };
    expect(valid({ ...baseConfig(), api }).api).toMatchObject({
      arrayFormat: 'brackets',
      pageSize: 100,
      concurrency: 2,
      maxRetries: 0,
    });
  });

  it.each([
    ['arrayFormat', 'csv'],
    ['pageSize', 0],
    ['concurrency', 65],
    ['timeoutSeconds', 0],
    ['maxRetries', -1],
  ])('rejects api.%s = %s', (key, value) => {
    expect(problemsOf({ ...baseConfig(), api: { ...baseConfig().api, [key]: value } })[0]).toMatch(
      new RegExp(`^api\\.${key}: `),
    );
  });
});
