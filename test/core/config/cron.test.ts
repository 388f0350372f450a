import { describe, expect, it } from 'vitest';
import { parseScheduleExpression } from '#core/config/cron';
import { baseConfig, problemsOf } from './helpers';

function cronProblems(cron: string): string[] {
  const config = baseConfig();
  const schedule = config.schedules[0];
  if (schedule) schedule.cron = cron;
  return problemsOf(config);
}

describe('schedule cron', () => {
  it.each([
    ['cron(0 8 ? * MON *)', 'cron'],
    ['0 8 ? * MON *', 'cron'],
    ['0 6 1 * ? *', 'cron'],
    ['15 */2 ? * MON-FRI 2026-2030', 'cron'],
    ['0 9 ? JAN,JUL 2#1 *', 'cron'],
    ['0 0 L * ? *', 'cron'],
    ['0 0 15W * ? *', 'cron'],
    ['0 0 ? * 6L *', 'cron'],
    ['0 0 ? * L *', 'cron'],
    ['rate(1 day)', 'rate'],
    ['rate(6 hours)', 'rate'],
    ['rate(30 minutes)', 'rate'],
  ])('accepts %s', (cron, kind) => {
    expect(cronProblems(cron)).toEqual([]);
    expect(parseScheduleExpression(cron)).toMatchObject({ kind });
  });

  it.each([
    [
      '0 8 * * MON',
      'an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got 5: "0 8 * * MON"; the EventBridge equivalent is "cron(0 8 ? * MON *)"',
    ],
    [
      '0 8 ? * MON',
      'an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got 5: "0 8 ? * MON"; the year field is missing: "cron(0 8 ? * MON *)" runs every year',
    ],
    [
      '0 6 1 * ?',
      'an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got 5: "0 6 1 * ?"; the year field is missing: "cron(0 6 1 * ? *)" runs every year',
    ],
    [
      'cron(0 8 * * *)',
      'an EventBridge cron has 6 fields (minutes hours day-of-month month day-of-week year), got 5: "0 8 * * *"; the EventBridge equivalent is "cron(0 8 * * ? *)"',
    ],
    ['30 6 * * 1-5', 'the EventBridge equivalent is "cron(30 6 ? * MON-FRI *)"'],
    ['0 0 1 * 0', 'EventBridge cannot combine a day of month with a day of week'],
    ['0 22-6 ? * MON *', 'cron hours range "22-6" runs backwards (22 comes after 6)'],
    ['0 8 ? * FRI-MON *', 'cron day-of-week range "FRI-MON" runs backwards (FRI comes after MON)'],
    ['0 8 1 DEC-FEB ? *', 'cron month range "DEC-FEB" runs backwards'],
    ['0 8 LW * ? *', 'cron day-of-month "LW" is not a form EventBridge documents'],
    ['0 8 L-3 * ? *', 'cron day-of-month "L-3" is not a form EventBridge documents'],
    ['0 8 1W,15W * ? *', 'cron day-of-month "1W,15W" is not a form EventBridge documents'],
    ['0 8 ? * MON#1,FRI#3 *', 'cron day-of-week "MON#1,FRI#3" is not a form EventBridge documents'],
    ['0 8 ? * ? *', 'cron needs "?" in exactly one of day-of-month and day-of-week'],
    ['0 8 * * MON *', 'cron needs "?" in exactly one of day-of-month and day-of-week'],
    ['60 8 ? * MON *', 'cron minutes value 60 is outside 0–59'],
    ['0 24 ? * MON *', 'cron hours value 24 is outside 0–23'],
    ['0 8 32 * ? *', 'cron day-of-month value 32 is outside 1–31'],
    ['0 8 0 * ? *', 'cron day-of-month value 0 is outside 1–31'],
    ['0 8 1 13 ? *', 'cron month value 13 is outside 1–12'],
    ['0 8 ? * 8 *', 'cron day-of-week value 8 is outside 1–7'],
    ['0 8 ? * MON 1969', 'cron year value 1969 is outside 1970–2199'],
    ['0 8 ? * FUNDAY *', 'cron day-of-week field has an unknown value "FUNDAY"'],
    ['0/0 8 ? * MON *', 'cron minutes step "0" must be a positive whole number'],
    ['0 8 ? * MON#6 *', 'cron day-of-week "#6" must name the 1st to 5th weekday of the month'],
    ['0 8 ? * MON; *', 'cron day-of-week field "MON;" has characters it cannot take'],
    ['rate(1 days)', 'write "rate(1 day)" for 1 and the plural for more'],
    ['rate(2 hour)', 'write "rate(1 hour)" for 1 and the plural for more'],
    ['rate(0 hours)', 'rate value must be a positive whole number'],
    ['rate(2 weeks)', 'rate must look like "rate(1 day)" or "rate(6 hours)"'],
    ['rate(daily)', 'rate must look like "rate(1 day)" or "rate(6 hours)"'],
  ])('rejects %s with a message naming the problem', (cron, message) => {
    const problems = cronProblems(cron);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^schedules\[0\]\.cron: /);
    expect(problems[0]).toContain(message);
  });
});

describe('schedule timezone', () => {
  it('defaults to UTC and accepts IANA names', () => {
    const config = baseConfig();
    expect(problemsOf(config)).toEqual([]);
    const schedule = config.schedules[0];
    if (schedule) schedule.timezone = 'America/New_York';
    expect(problemsOf(config)).toEqual([]);
  });

  it.each(['Mars/Olympus_Mons', 'CEST+2', ''])('rejects the unknown timezone "%s"', (timezone) => {
    const config = baseConfig();
    const schedule = config.schedules[0];
    if (schedule) schedule.timezone = timezone;
    expect(problemsOf(config)).toEqual([
      `schedules[0].timezone: unknown timezone "${timezone}"; use an IANA name such as Europe/Berlin or UTC`,
    ]);
  });
});
