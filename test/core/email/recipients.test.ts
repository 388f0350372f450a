/** `ssm:/path` entries of recipients and operators, read at send time through the injected reader. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { recipientParameters, resolveRecipients } from '#core/email/recipients';
import { deliverSummary } from '#core/email/summary';
import { isExporterError } from '#core/errors';
import { recordingMailer } from '../../support/mailer';
import { config, summaryInput } from './fixtures';

const reader = (values: Record<string, string>) => {
  const reads: string[] = [];
  const read = async (name: string) => {
    reads.push(name);
    const v = values[name];
    if (v === undefined) throw new Error(`no parameter ${name}`);
    return v;
  };
  return { read, reads };
};

describe('resolveRecipients', () => {
  it('replaces an ssm: entry by its comma-separated addresses, trimmed and de-duplicated, beside literal ones', async () => {
    const r = reader({ '/re/weekly': ' a@example.com,B@example.com , ,c@example.com' });
    await expect(
      resolveRecipients(['x@example.com', 'ssm:/re/weekly', 'b@example.com'], r.read),
    ).resolves.toEqual(['x@example.com', 'a@example.com', 'B@example.com', 'c@example.com']);
    expect(r.reads).toEqual(['/re/weekly']);
  });

  it('keeps literal lists working without any reader', async () => {
    await expect(resolveRecipients(['a@example.com'], undefined)).resolves.toEqual(['a@example.com']);
  });

  it('fails with EMAIL_FAILED, without echoing the value, when a parameter holds something that is not an address', async () => {
    const r = reader({ '/re/bad': 'a@example.com,evil\r\nBcc: x@evil.test' });
    const err = await resolveRecipients(['ssm:/re/bad'], r.read).catch((e: unknown) => e);
    expect(isExporterError(err, 'EMAIL_FAILED')).toBe(true);
    expect(String(err)).toContain('SSM parameter /re/bad');
    expect(String(err)).not.toContain('evil');
  });

  it('fails with EMAIL_FAILED when an ssm: entry cannot be read here', async () => {
    await expect(resolveRecipients(['ssm:/re/x'], undefined)).rejects.toSatisfy((e) =>
      isExporterError(e, 'EMAIL_FAILED'),
    );
  });

  it('reads the list at send time: deliverSummary sends to what the parameter holds now', async () => {
    const { schedule } = config();
    const values = { '/re/weekly': 'first@example.com' };
    const r = reader(values);
    const mailer = recordingMailer();
    const { sent } = mailer;
    const input = summaryInput({
      schedule: { ...schedule, recipients: ['ssm:/re/weekly'] },
      readParameter: r.read,
    });
    await deliverSummary(input, mailer);
    values['/re/weekly'] = 'second@example.com,third@example.com';
    await deliverSummary(input, mailer);
    expect(sent.map((m) => m.to)).toEqual([
      ['first@example.com'],
      ['second@example.com', 'third@example.com'],
    ]);
  });
});

describe('config: recipients may name SSM parameters', () => {
  const yaml = (recipients: string, operators = '[]') => `
api: { baseUrl: http://127.0.0.1:9, credentialsSecret: s }
email: { from: r@example.com, operators: [ssm:/re/ops] }
schedules:
  - id: a
    cron: "0 8 ? * MON *"
    window: yesterday
    recipients: ${recipients}
    operators: ${operators}
    reports: [{ id: x, route: instances }]
`;

  it('accepts one ssm:/path or a list mixing addresses and ssm:/path, and lists every parameter once', () => {
    const one = parseConfig(yaml('ssm:/re/weekly/recipients'));
    expect(one.schedules[0]?.recipients).toEqual(['ssm:/re/weekly/recipients']);
    const mixed = parseConfig(yaml('[a@example.com, ssm:/re/weekly]', '[ssm:/re/ops]'));
    expect(recipientParameters(mixed)).toEqual(['/re/ops', '/re/weekly']);
  });

  it('rejects a malformed ssm: entry and a bare word, by path', () => {
    expect(() => parseConfig(yaml('[ssm:no-slash]'))).toThrow(
      /schedules\[0\]\.recipients\[0\]: "ssm:no-slash" is not an SSM parameter reference/,
    );
    expect(() => parseConfig(yaml('hello'))).toThrow(/schedules\[0\]\.recipients: write a list of addresses/);
  });
});
