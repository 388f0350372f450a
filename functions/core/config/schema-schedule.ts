/** A schedule of `reports.yaml`: when it runs, which window it exports, who hears of it, its reports. */
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { windowProblem } from '../window-kinds';
import { parseScheduleExpression } from './cron';
import { ALWAYS, duplicates, idSchema, noCrLf, recipientList, titleSchema } from './schema-fields';
import { reportSchema } from './schema-report';

/** Most earlier windows a run may re-export (`lookback`): 28 days of a daily schedule. */
export const MAX_LOOKBACK = 28;
/** Revisions smaller than this (in percent of the old total) are not mentioned in the email. */
export const DEFAULT_REVISED_THRESHOLD_PERCENT = 0.5;

const windowSchema = z.string().superRefine((value, ctx) => {
  const problem = windowProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

export const scheduleSchema = z
  .strictObject({
    id: idSchema('schedule id'),
    title: titleSchema.optional(),
    description: z
      .string()
      .min(1)
      .max(200)
      .refine(noCrLf, { error: 'description may not contain line breaks' })
      .optional(),
    cron: z.string().superRefine((value, ctx) => {
      const parsed = parseScheduleExpression(value);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    }),
    timezone: z
      .string()
      .default('UTC')
      // 'UTC' without asking Intl: the process's first Intl.DateTimeFormat loads ICU's zone data
      // (~25 ms), which a run on UTC schedules never needs otherwise (luxon's UTC is a fixed offset)
      .refine((tz) => tz === 'UTC' || IANAZone.isValidZone(tz), {
        error: (iss) =>
          `unknown timezone "${String(iss.input)}"; use an IANA name such as Europe/Berlin or UTC`,
      }),
    enabled: z.boolean().default(true),
    window: windowSchema,
    lookback: z
      .int()
      .min(0)
      .max(MAX_LOOKBACK, {
        error: `lookback is at most ${MAX_LOOKBACK} (each run re-exports that many earlier windows)`,
      })
      .default(0)
      .describe("Re-export the windows of the schedule's N previous occurrences on every run"),
    revisedThresholdPercent: z
      .number()
      .min(0)
      .max(100)
      .default(DEFAULT_REVISED_THRESHOLD_PERCENT)
      .describe('The email lists a revised KPI total only when it moved by more than this percentage'),
    recipients: recipientList,
    operators: recipientList,
    reports: z.array(reportSchema).min(1, { error: 'a schedule needs at least one report' }),
  })
  .superRefine((schedule, ctx) => {
    const reports = Array.isArray(schedule.reports) ? schedule.reports : [];
    duplicates(reports.map((r) => r?.id)).forEach((i) => {
      ctx.addIssue({
        code: 'custom',
        path: ['reports', i, 'id'],
        message: `report id "${reports[i]?.id}" is used twice in this schedule`,
      });
    });
  }, ALWAYS);
