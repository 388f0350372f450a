/**
 * `report-exporter simulate`: runs the Reporting API v2 simulator in the foreground, prints where it
 * listens, its own fake demo credentials and a curl session, and closes cleanly on Ctrl-C / SIGTERM.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Dialect, type Faults, type Simulator, startSimulator } from '#simulator/server';
import { SUMMARIES } from './table';

const int = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
  return Number(v);
};
const rate = (v: string) => {
  const n = Number(v);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('a rate is a number between 0 and 1');
  return n;
};

interface SimulateOptions {
  host: string;
  port: number;
  seed: number;
  latencyMs: number;
  postsPerDay?: number;
  campaigns?: number;
  creators?: number;
  fault429?: number;
  retryAfter?: Faults['retryAfter'];
  retryAfterSeconds?: number;
  fault5xx?: number;
  faultReset?: number;
  faultSlow?: number;
  slowMs?: number;
  tokenTtl?: number;
  limitCap?: number;
  faultEmptyPage?: number;
  repeatCursor?: boolean;
  hostile?: boolean;
  arrayFormat: Dialect['arrayFormat'];
  strict?: boolean;
  cursorAt: Dialect['cursorAt'];
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description(SUMMARIES.simulate.description)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'port (default: a free one)', int('--port'), 0)
    .option('--seed <n>', 'data seed; the same seed serves the same bytes', int('--seed'), 1)
    .option('--latency-ms <n>', 'delay added to every data response', int('--latency-ms'), 0)
    .option('--posts-per-day <n>', 'posts generated per day', int('--posts-per-day'))
    .option('--campaigns <n>', 'number of campaigns', int('--campaigns'))
    .option('--creators <n>', 'number of creators', int('--creators'))
    .option('--fault-429 <rate>', 'share of data requests answered 429', rate)
    .addOption(
      new Option('--retry-after <form>', 'Retry-After form on 429').choices(['seconds', 'http-date', 'none']),
    )
    .option('--retry-after-seconds <n>', 'Retry-After value', int('--retry-after-seconds'))
    .option('--fault-5xx <rate>', 'share answered 500/502/503/504', rate)
    .option('--fault-reset <rate>', 'share whose connection is reset mid-response', rate)
    .option('--fault-slow <rate>', 'share delayed by --slow-ms', rate)
    .option('--slow-ms <n>', 'delay of slow responses', int('--slow-ms'))
    .option('--token-ttl <seconds>', 'token lifetime (default 43200)', int('--token-ttl'))
    .option('--limit-cap <n>', 'largest page size served', int('--limit-cap'))
    .option('--fault-empty-page <rate>', 'share of list pages that are empty but carry a cursor', rate)
    .option('--repeat-cursor', 'bug mode: return the same nextCursor forever')
    .option('--hostile', 'hostile text (formulas, quotes, line breaks, <script>, RTL) in names and captions')
    .addOption(
      new Option('--array-format <form>', 'the only array encoding understood (default: all three)')
        .choices(['any', 'repeat', 'comma', 'brackets'])
        .default('any'),
    )
    .option('--strict', 'answer 400 to unknown parameters, limit over the cap, another array encoding')
    .addOption(
      new Option('--cursor-at <field>', 'where list pages carry the next cursor')
        .choices(['nextCursor', 'meta.nextCursor'])
        .default('nextCursor'),
    )
    .action(async (o: SimulateOptions) => {
      const sim = await startSimulator({
        host: o.host,
        port: o.port,
        seed: o.seed,
        latencyMs: o.latencyMs,
        scale: defined({ postsPerDay: o.postsPerDay, campaigns: o.campaigns, creators: o.creators }),
        faults: defined({
          rate429: o.fault429,
          retryAfter: o.retryAfter,
          retryAfterSeconds: o.retryAfterSeconds,
          rate5xx: o.fault5xx,
          rateReset: o.faultReset,
          rateSlow: o.faultSlow,
          slowMs: o.slowMs,
          tokenTtlSeconds: o.tokenTtl,
          limitCap: o.limitCap,
          rateEmptyPage: o.faultEmptyPage,
          repeatCursor: o.repeatCursor,
        }),
        dialect: { arrayFormat: o.arrayFormat, strict: o.strict === true, cursorAt: o.cursorAt },
        hostile: o.hostile === true,
      });
      process.stdout.write(banner(sim));
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.close();
      const s = sim.stats();
      process.stdout.write(`\nsimulator stopped after ${s.requests} request(s)\n`);
    });
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What the user needs to talk to the simulator, including a ready-to-paste curl session. */
export function banner(sim: Simulator): string {
  const { clientId, clientSecret } = sim.credentials;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const list = `${sim.baseUrl}/v2/campaigns/performance?startDate=${day(-7)}&endDate=${day(-1)}&metrics=likes&metrics=comments&limit=5`;
  return [
    `Reporting API v2 simulator listening on ${sim.baseUrl}`,
    '',
    "Demo credentials (the simulator's own fake client, not real secrets):",
    `  clientId:     ${clientId}`,
    `  clientSecret: ${clientSecret}`,
    '',
    'Try it:',
    `  TOKEN=$(curl -s -X POST ${sim.baseUrl}/oauth/token -H 'content-type: application/json' \\`,
    `    -d '{"clientId":"${clientId}","clientSecret":"${clientSecret}"}' | sed -E 's/.*"jwt":"([^"]+)".*/\\1/')`,
    `  curl -s -H "Authorization: Bearer $TOKEN" '${list}'`,
    '  # next page: pass the nextCursor from the answer, URL-encoded:',
    `  curl -s -G -H "Authorization: Bearer $TOKEN" '${list}' --data-urlencode 'nextCursor=<cursor>'`,
    '',
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}
