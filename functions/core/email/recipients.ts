/**
 * Who gets which email. Entries of `recipients` / `operators` are addresses or `ssm:/path` references
 * to an SSM parameter holding comma-separated addresses, read at send time so a mailing list changes
 * without a redeploy. The result is trimmed, checked, and de-duplicated case-insensitively.
 */
import * as z from 'zod/mini';
import type { Config, ScheduleConfig } from '../config/schema';
import { ExporterError } from '../errors';
import type { ParameterReader } from './types';

const SSM = /^ssm:(\/.+)$/;
const address = z.email();

/** The entries of a list, with every `ssm:` entry replaced by the addresses its parameter holds. */
export async function resolveRecipients(
  entries: readonly string[],
  readParameter: ParameterReader | undefined,
): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (raw: string, from: string) => {
    const a = raw.trim();
    if (a === '') return;
    if (/[\p{Cc}\u2028\u2029]/u.test(a) || !address.safeParse(a).success) {
      // The entry is not echoed: a broken value could carry header text or anything else.
      throw new ExporterError('EMAIL_FAILED', `${from} holds a value that is not an email address; fix it`);
    }
    if (seen.has(a.toLowerCase())) return;
    seen.add(a.toLowerCase());
    out.push(a);
  };
  for (const entry of entries) {
    const name = SSM.exec(entry.trim())?.[1];
    if (name === undefined) {
      add(entry, 'a recipient address');
      continue;
    }
    if (!readParameter) {
      throw new ExporterError(
        'EMAIL_FAILED',
        `recipients name the SSM parameter ${name}, but nothing here can read SSM`,
      );
    }
    const value = await readParameter(name);
    for (const part of value.split(',')) add(part, `SSM parameter ${name}`);
  }
  return out;
}

/** The schedule's operators: its own list when it has one, else `email.operators`. */
export function operatorEntries(config: Config, schedule: ScheduleConfig): readonly string[] {
  return schedule.operators.length > 0 ? schedule.operators : (config.email?.operators ?? []);
}

/** Whether a run of this schedule emails anyone at all (before SSM lists are read). */
export function hasAudience(config: Config, schedule: ScheduleConfig): boolean {
  return (
    config.email !== undefined &&
    (schedule.recipients.length > 0 || operatorEntries(config, schedule).length > 0)
  );
}

/** Every SSM parameter the config's recipient lists name (`/report-exporter/weekly/recipients`), once. */
export function recipientParameters(config: Config): string[] {
  const entries = [
    ...(config.email?.operators ?? []),
    ...config.schedules.flatMap((s) => [...s.recipients, ...s.operators]),
  ];
  const names = entries.map((e) => SSM.exec(e.trim())?.[1]).filter((n): n is string => n !== undefined);
  return [...new Set(names)];
}
