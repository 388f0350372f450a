/**
 * A config whose schedules are on UTC (the default) is validated without `Intl.DateTimeFormat`: the
 * process's first one loads ICU's zone data (~25 ms of every CLI start; docs/performance.md, "Start"),
 * and nothing else in a UTC run needs it. Another zone is still checked against the IANA names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';

const Original = Intl.DateTimeFormat;
let made = 0;

afterEach(() => {
  Intl.DateTimeFormat = Original;
});

function counting(): void {
  made = 0;
  Intl.DateTimeFormat = class extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      super(...args);
      made += 1;
    }
  } as typeof Intl.DateTimeFormat;
}

const config = (timezone?: string) => `api:
  baseUrl: https://api.example.com
  credentialsSecret: reporting/creds
output:
  formats: [parquet]
schedules:
  - id: daily
    cron: "0 8 * * ? *"
${timezone ? `    timezone: ${timezone}\n` : ''}    window: yesterday
    reports:
      - id: posts
        route: posts/performance
        metrics: [likes]
`;

describe('schedule timezones', () => {
  it('validates UTC, given or by default, without Intl', () => {
    counting();
    expect(parseConfig(config()).schedules[0]?.timezone).toBe('UTC');
    expect(parseConfig(config('UTC')).schedules[0]?.timezone).toBe('UTC');
    expect(made).toBe(0);
  });

  it('checks any other zone against the IANA names', () => {
    counting();
    expect(parseConfig(config('Europe/Berlin')).schedules[0]?.timezone).toBe('Europe/Berlin');
    expect(made).toBeGreaterThan(0);
    expect(() => parseConfig(config('Mars/Olympus'))).toThrow(/unknown timezone "Mars\/Olympus"/);
  });
});
