/**
 * A platform team's config, generated (not a test file): `schedules` schedules of `reports` reports
 * each, every report two metrics, the schedules spread over 24 hours × `timezones` timezones (so they
 * fire at up to 24 × timezones distinct times), every schedule with its own recipient list in SSM.
 * `options.rich` turns on every optional part of the stack (VPC, customer-managed keys, alarm email,
 * tags), so the stack's fixed part is at its largest.
 */
import { validateConfig } from '#core/config/load';
import type { Config } from '#core/config/schema';

const ROUTES = [
  ['campaigns/performance', ['likes', 'paidImpressions']],
  ['creators/performance', ['likes', 'comments']],
  ['posts/performance', ['likes', 'shares']],
  ['platforms/performance', ['likes', 'comments']],
  ['instances/performance', ['likes', 'paidAdSpend']],
] as const;
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Tokyo',
  'UTC',
  'Australia/Sydney',
  'America/Sao_Paulo',
];

export interface LargeConfigOptions {
  readonly schedules: number;
  readonly reports: number;
  /** @default 4 */
  readonly timezones?: number;
  /** Every schedule its own time (minute and hour): as many Scheduler schedules as schedules. */
  readonly distinctTimes?: boolean;
  /** @default false */
  readonly rich?: boolean;
  /** @default 'https://reporting.example.com' */
  readonly baseUrl?: string;
  /** The schedules' hours: `0 {i % hours} * * ? *`. @default 24 */
  readonly hours?: number;
  /** Summary emails (an operator, and an SSM recipient list per schedule). @default true */
  readonly email?: boolean;
  /** Appended to the first schedule's description (a config change that redeploys the functions). */
  readonly note?: string;
}

export function largeConfig(o: LargeConfigOptions): Config {
  const zones = ZONES.slice(0, o.timezones ?? 4);
  const schedules = Array.from({ length: o.schedules }, (_, i) => ({
    id: `brand-${String(i).padStart(4, '0')}-daily`,
    cron: o.distinctTimes
      ? `${i % 60} ${Math.floor(i / 60) % 24} * * ? *`
      : `0 ${i % (o.hours ?? 24)} * * ? *`,
    ...(i === 0 && o.note ? { description: o.note } : {}),
    timezone: zones[Math.floor(i / 24) % zones.length],
    window: 'yesterday',
    ...(o.email === false ? {} : { recipients: [`ssm:/report-exporter/brand-${i}/recipients`] }),
    reports: Array.from({ length: o.reports }, (_, r) => {
      const [route, metrics] = ROUTES[r % ROUTES.length] ?? ROUTES[0];
      return { id: `report-${r}`, route, metrics: [...metrics] };
    }),
  }));
  return validateConfig({
    api: { baseUrl: o.baseUrl ?? 'https://reporting.example.com', credentialsSecret: 'reporting/v2/client' },
    output: { prefix: 'exports/', formats: ['parquet', 'csv'] },
    ...(o.email === false
      ? {}
      : { email: { from: 'Reports <reports@example.com>', operators: ['data-team@example.com'] } }),
    ...(o.rich
      ? {
          operations: { alarmEmail: 'oncall@example.com' },
          deploy: {
            vpc: { vpcId: 'vpc-0a1b2c3d4e5f60718', subnetIds: ['subnet-0aaa1111', 'subnet-0bbb2222'] },
            bucketKmsKeyArn: 'arn:aws:kms:eu-central-1:123456789012:key/66666666-7777-8888-9999-000000000000',
            secretKmsKeyArn: 'arn:aws:kms:eu-central-1:123456789012:key/11111111-2222-3333-4444-555555555555',
            tags: { team: 'data-platform' },
          },
        }
      : {}),
    schedules,
  });
}
