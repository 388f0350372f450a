/**
 * The one schema of `reports.yaml` (docs/config.md). Types are derived from it; the JSON Schema in
 * `schema/reports.schema.json` is generated from it. Every rule that can be checked before a network
 * call lives here, so `validate`, `run` and `cdk synth` reject the same configs with the same messages.
 */
import { z } from 'zod';
import { DEFAULT_MAX_KEYS_PER_OBJECT } from '../export/flatten';
import { deploySchema } from './deploy-schema';
import { ALWAYS, duplicates, emailAddress, strings } from './schema-fields';
import { scheduleSchema } from './schema-schedule';
import { apiSchema, emailSchema, outputSchema } from './schema-sections';

export const ConfigSchema = z
  .strictObject({
    api: apiSchema,
    output: outputSchema.default({
      prefix: 'exports/',
      formats: ['parquet', 'csv'],
      maxRowsPerPart: 1_000_000,
      maxKeysPerObject: DEFAULT_MAX_KEYS_PER_OBJECT,
      columnNames: 'snake_case',
      csvFormulaGuard: false,
    }),
    email: emailSchema.optional(),
    operations: z
      .strictObject({ alarmEmail: emailAddress.optional() })
      .default({})
      .describe('Deploy only: where alarms are sent'),
    deploy: deploySchema,
    schedules: z.array(scheduleSchema).min(1, { error: 'the config needs at least one schedule' }),
  })
  .superRefine((config, ctx) => {
    const schedules = Array.isArray(config.schedules) ? config.schedules : [];
    duplicates(schedules.map((s) => s?.id)).forEach((i) => {
      ctx.addIssue({
        code: 'custom',
        path: ['schedules', i, 'id'],
        message: `schedule id "${schedules[i]?.id}" is used twice`,
      });
    });
    if (config.email === undefined) {
      schedules.forEach((s, i) => {
        for (const key of ['recipients', 'operators'] as const) {
          if (strings(s?.[key]).length > 0) {
            ctx.addIssue({
              code: 'custom',
              path: ['schedules', i, key],
              message: `${key} are set but the config has no email.from; add an email section`,
            });
          }
        }
      });
    }
  }, ALWAYS);

export type Config = z.infer<typeof ConfigSchema>;
export type ScheduleConfig = Config['schedules'][number];
export type ReportConfig = ScheduleConfig['reports'][number];
export type { DeployConfig } from './deploy-schema';
