/**
 * Two audiences for one run: stakeholders get the numbers and, for a failed report, a plain sentence;
 * operators get the error with its code, warnings, file locations and the run id. Headers of both.
 */
import { describe, expect, it } from 'vitest';
import { composeMime } from '#core/email/mime';
import { deliverSummary, renderSummary } from '#core/email/summary';
import type { EmailMessage } from '#core/email/types';
import { recordingMailer } from '../../support/mailer';
import { config, creatorsReport, manifest, postsReport, summaryInput } from './fixtures';

const ERROR =
  "The API answered 403 on /v2/posts/performance (HTTP 403 Forbidden): instanceIds in-9 are outside this client's set (gave up after 3 attempts)";

async function messagesOfFailedRun(): Promise<{ stakeholders: EmailMessage; operators: EmailMessage }> {
  const { config: cfg, schedule } = config();
  if (!cfg.email) throw new Error('fixture has no email section');
  const messages = await renderSummary(
    summaryInput({
      config: {
        ...cfg,
        email: { ...cfg.email, operators: ['ops@example.com'], replyTo: 'Data team <data@example.com>' },
      },
      schedule,
      manifest: manifest([
        creatorsReport({
          warnings: [
            {
              code: 'METRIC_ABSENT',
              message: 'affiliateLinksRevenue was in no row; check the metric name',
              column: 'affiliateLinksRevenue',
            },
          ],
        }),
        postsReport({ error: ERROR, errorCode: 'API_FORBIDDEN' }),
      ]),
    }),
  );
  const stakeholders = messages.find((m) => m.audience === 'stakeholders');
  const operators = messages.find((m) => m.audience === 'operators');
  if (!stakeholders || !operators) throw new Error('an audience is missing');
  return { stakeholders, operators };
}

describe('stakeholders and operators', () => {
  it('stakeholders: a plain sentence for the failed report, no error text, code, HTTP status or location', async () => {
    const { stakeholders } = await messagesOfFailedRun();
    expect(stakeholders.to).toEqual(['brand-team@example.com', 'cmo@example.com']);
    for (const part of [stakeholders.html, stakeholders.text]) {
      expect(part).toContain(
        'The Post performance report could not be updated for 16–22 Nov 2026; the data team has been told.',
      );
      expect(part).not.toMatch(
        /API_FORBIDDEN|METRIC_ABSENT|403|HTTP|\/v2\/|s3:\/\/|exports\/|run-2026|Error/,
      );
    }
  });

  it('operators: the error with its code, the warnings, every file location and the run id', async () => {
    const { operators } = await messagesOfFailedRun();
    expect(operators.to).toEqual(['ops@example.com']);
    expect(operators.subject).toBe(
      'PARTIAL: Weekly campaign performance: 2026-11-16 – 2026-11-22 (run details)',
    );
    for (const part of [operators.html, operators.text]) {
      expect(part).toContain('API_FORBIDDEN');
      expect(part).toContain('gave up after 3 attempts');
      expect(part).toContain('METRIC_ABSENT');
      expect(part).toContain(
        's3://acme-exports/exports/weekly-campaigns/creators/csv/dt=2026-11-22/part-00000.csv',
      );
      expect(part).toContain('run-2026-11-23T07-00');
    }
    expect(operators.text).toContain('Error API_FORBIDDEN: The API answered 403 on /v2/posts/performance');
    expect(operators.html).toContain('outside this client&#39;s set');
  });

  it('marks both as auto-generated and sets Reply-To when configured', async () => {
    const { stakeholders, operators } = await messagesOfFailedRun();
    for (const m of [stakeholders, operators]) {
      const raw = (await composeMime(m)).toString('utf8');
      const headers = raw.slice(0, raw.indexOf('\r\n\r\n'));
      expect(headers).toMatch(/^Auto-Submitted: auto-generated$/m);
      expect(headers).toMatch(/^Reply-To: Data team <data@example.com>$/m);
    }
  });

  it('sends the operators their email even when the schedule has no stakeholders; global list unless the schedule has its own', async () => {
    const { config: cfg, schedule } = config();
    if (!cfg.email) throw new Error('fixture has no email section');
    const mailer = recordingMailer();
    const { sent } = mailer;
    const withOps = { ...cfg, email: { ...cfg.email, operators: ['global-ops@example.com'] } };
    await deliverSummary(
      summaryInput({ config: withOps, schedule: { ...schedule, recipients: [] } }),
      mailer,
    );
    expect(sent.map((m) => [m.audience, m.to])).toEqual([['operators', ['global-ops@example.com']]]);
    sent.length = 0;
    await deliverSummary(
      summaryInput({
        config: withOps,
        schedule: { ...schedule, recipients: [], operators: ['own@example.com'] },
      }),
      mailer,
    );
    expect(sent.map((m) => m.to)).toEqual([['own@example.com']]);
  });

  it('operators: a run whose reports all succeeded but carry warnings is not a green "up to date"', async () => {
    const { config: cfg, schedule } = config();
    const email = cfg.email;
    if (!email) throw new Error('fixture has no email section');
    const input = (warned: boolean) =>
      summaryInput({
        config: { ...cfg, email: { ...email, operators: ['ops@example.com'] } },
        schedule,
        manifest: manifest([
          creatorsReport(
            warned
              ? {
                  warnings: [
                    {
                      code: 'SERVER_PARTIAL',
                      message: 'the API flagged its results as partial (shard 3 of 4 timed out)',
                    },
                  ],
                }
              : {},
          ),
        ]),
      });
    const of = async (warned: boolean) => {
      const messages = await renderSummary(input(warned));
      const by = (a: string) => messages.find((m) => m.audience === a);
      return { operators: by('operators'), stakeholders: by('stakeholders') };
    };
    const warned = await of(true);
    const clean = await of(false);
    for (const part of [warned.operators?.html, warned.operators?.text])
      expect(part).toContain('The report carries warnings: see Warnings below');
    expect(warned.operators?.html).toContain('Up to date, with warnings');
    expect(warned.operators?.html).not.toContain('#dcfce7');
    // stakeholders keep their verdict; operators without warnings keep the green banner
    expect(warned.stakeholders?.html).toContain('#dcfce7');
    expect(clean.operators?.html).toContain('#dcfce7');
    for (const part of [clean.operators?.html, clean.operators?.text])
      expect(part).not.toContain('carry warnings');
  });
});
