/**
 * The deployment's Scheduler schedules: one per distinct (expression, timezone, enabled) of the
 * config's schedules, whose input names every config schedule it fires (docs/deploy.md "Scheduling").
 * So the stack grows with the number of distinct times, not with the number of schedules: 500 daily
 * schedules at 24 hours × 4 timezones are 96 Scheduler schedules. A group whose input would pass
 * `MAX_GROUP_INPUT_BYTES` is split in order into several schedules of the same time.
 */
import type { ScheduleConfig } from './config/schema';

/** The input a group's Scheduler schedule sends the dispatcher (`scheduledTime` filled in by Scheduler). */
export interface GroupInput {
  readonly scheduleIds: string[];
  readonly scheduledTime: string;
}

export interface ScheduleGroup {
  /** Stable across deploys while the time stays the same: `g{hash}-{chunk}` (a construct id). */
  readonly key: string;
  /** The Scheduler expression, `cron(…)` or `rate(…)`. */
  readonly expression: string;
  readonly timezone: string;
  readonly enabled: boolean;
  /** The config schedules it fires, in config order. */
  readonly scheduleIds: string[];
}

/**
 * Our bound on one group's input (JSON), well under Scheduler's and Step Functions' input limits, so
 * one dispatcher execution stays small: ~190 schedule ids of the longest form (40 characters).
 */
export const MAX_GROUP_INPUT_BYTES = 8 * 1024;

/** A config `cron` (`0 8 ? * MON *`, `cron(...)` or `rate(...)`) as a Scheduler expression. */
export function schedulerExpression(cron: string): string {
  const text = cron.trim().replace(/\s+/g, ' ');
  return /^(cron|rate)\(/.test(text) ? text : `cron(${text})`;
}

/** The bytes of a group's input as Scheduler sends it (the longest ISO time in place of the placeholder). */
export function groupInputBytes(scheduleIds: readonly string[]): number {
  const input: GroupInput = { scheduleIds: [...scheduleIds], scheduledTime: '2026-12-31T23:59:59.999Z' };
  return new TextEncoder().encode(JSON.stringify(input)).length;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable name for a (time, timezone, state). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The config's schedules grouped by when they fire, each group within `MAX_GROUP_INPUT_BYTES`. */
export function scheduleGroups(schedules: readonly ScheduleConfig[]): ScheduleGroup[] {
  const byTime = new Map<string, { expression: string; timezone: string; enabled: boolean; ids: string[] }>();
  for (const s of schedules) {
    const expression = schedulerExpression(s.cron);
    const time = `${expression}|${s.timezone}|${s.enabled}`;
    const group = byTime.get(time) ?? { expression, timezone: s.timezone, enabled: s.enabled, ids: [] };
    group.ids.push(s.id);
    byTime.set(time, group);
  }
  const groups: ScheduleGroup[] = [];
  for (const [time, g] of byTime) {
    let chunk: string[] = [];
    let index = 0;
    const flush = () => {
      groups.push({
        key: `g${fnv1a(time)}-${index}`,
        expression: g.expression,
        timezone: g.timezone,
        enabled: g.enabled,
        scheduleIds: chunk,
      });
      index += 1;
      chunk = [];
    };
    for (const id of g.ids) {
      if (chunk.length > 0 && groupInputBytes([...chunk, id]) > MAX_GROUP_INPUT_BYTES) flush();
      chunk.push(id);
    }
    flush();
  }
  return groups;
}
