import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { ExporterError } from '#core/errors';
import { baseConfig, problemsOf, valid } from './helpers';

const withBaseUrl = (baseUrl: string) => ({ ...baseConfig(), api: { ...baseConfig().api, baseUrl } });
const withPrefix = (prefix: string) => ({ ...baseConfig(), output: { prefix } });

describe('api.baseUrl: credentials, query and fragment', () => {
  it.each([
    'https://user:hunter2-secret@reporting.example.com',
    'https://hunter2-secret@reporting.example.com/api',
    'http://user:hunter2-secret@localhost:8080',
  ])('refuses credentials in %s without printing them', (baseUrl) => {
    const problems = problemsOf(withBaseUrl(baseUrl));
    expect(problems.join('\n')).toContain('baseUrl must not carry a user name or password');
    expect(problems.join('\n')).not.toContain('hunter2-secret');
    expect(problems.join('\n')).not.toContain('user:');
  });

  it('never prints the password of an http URL refused for not being https', () => {
    const problems = problemsOf(withBaseUrl('http://user:hunter2-secret@reporting.example.com'));
    expect(problems).toEqual([
      'api.baseUrl: baseUrl must not carry a user name or password ("http://reporting.example.com" without them); credentials belong in the api.credentialsSecret secret',
      'api.baseUrl: baseUrl must use https (http is allowed only for localhost and 127.0.0.1), got "http://reporting.example.com"',
    ]);
  });

  it.each([
    ['https://reporting.example.com/api?tenant=7', 'query', 'https://reporting.example.com/api'],
    ['https://reporting.example.com/?', 'query', 'https://reporting.example.com'],
    ['https://reporting.example.com/#top', 'fragment', 'https://reporting.example.com'],
    ['https://reporting.example.com/api#', 'fragment', 'https://reporting.example.com/api'],
  ])('refuses %s (a %s would mangle request URLs) and shows the URL to use', (baseUrl, what, shown) => {
    const problems = problemsOf(withBaseUrl(baseUrl));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`baseUrl must not have a ${what}`);
    expect(problems[0]).toContain(`"${shown}"`);
  });

  it('keeps a path', () => {
    expect(valid(withBaseUrl('https://reporting.example.com/api/')).api.baseUrl).toBe(
      'https://reporting.example.com/api/',
    );
  });
});

describe('output.prefix: a plain key prefix', () => {
  it.each(['', 'exports/', 'a/b-c/d_e.f/', 'team 1/exports/'])('accepts "%s"', (prefix) => {
    expect(problemsOf(withPrefix(prefix))).toEqual([]);
  });

  it.each([
    ['./exp/', '"exp/"'],
    ['a//b/', '"a/b/"'],
    ['a/./b/', '"a/b/"'],
    ['./', '""'],
  ])('refuses "%s" and names the prefix to write (%s)', (prefix, suggestion) => {
    const problems = problemsOf(withPrefix(prefix));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^output\.prefix: prefix must be a plain key prefix without "\.\/" or "\/\/"/,
    );
    expect(problems[0]).toContain(`write ${suggestion}`);
  });

  it.each(['../', 'exports/../other/', '..'])('refuses "%s": it would escape the folder', (prefix) => {
    expect(problemsOf(withPrefix(prefix))).toEqual([
      `output.prefix: prefix may not contain ".." (it would write outside the export folder), got "${prefix}"`,
    ]);
  });

  it.each(['exp*/', 'exp?/', 'exp[1]/', '{a,b}/'])('refuses the glob characters in "%s"', (prefix) => {
    expect(problemsOf(withPrefix(prefix))[0]).toMatch(
      /^output\.prefix: prefix may not contain any of \* \? \[ \] \{ \}/,
    );
  });

  it.each(['/exports/', 'exports'])('refuses "%s" (leading "/" or no trailing "/")', (prefix) => {
    expect(problemsOf(withPrefix(prefix))[0]).toMatch(
      /must be empty or end with "\/" and not start with "\/"/,
    );
  });

  it('refuses backslashes and line breaks', () => {
    expect(problemsOf(withPrefix('a\\b/'))[0]).toContain('may not contain "\\"');
    expect(problemsOf(withPrefix('a\nb/'))[0]).toContain('may not contain control characters');
  });
});

describe('YAML alias bombs', () => {
  it('refuses a "billion laughs" file with its name and a plain reason, quickly', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 8; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    let err: unknown;
    try {
      parseConfig(levels.join('\n'), 'bomb.yaml');
    } catch (e: unknown) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExporterError);
    expect(err).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((err as Error).message).toMatch(/^bomb\.yaml is not a usable config: its YAML aliases/);
  });

  it('still accepts a config that uses a few aliases', () => {
    const text = `
api: { baseUrl: "https://reporting.example.com", credentialsSecret: s }
schedules:
  - id: a
    cron: "0 8 ? * MON *"
    window: yesterday
    reports:
      - &r { id: r, route: campaigns/performance, metrics: [likes] }
  - id: b
    cron: "0 8 ? * MON *"
    window: yesterday
    reports: [*r]
`;
    expect(parseConfig(text).schedules[1]?.reports[0]?.id).toBe('r');
  });
});
