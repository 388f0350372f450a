/**
 * The handlers' metrics as CloudWatch receives them (Powertools EMF on stdout): namespace, the
 * `service` dimension and the names the dashboard in infra/constructs/monitoring.ts reads, flushed
 * by the Powertools middleware of `lambdaHandler` when an invocation returns or throws.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '#core/manifest';
import type { ExportStepResult } from '#core/run/types';
import { recordRun, recordStep } from '#handlers/run-metrics';
import { lambdaHandler } from '#handlers/wiring';

const CONTEXT = { getRemainingTimeInMillis: () => 60_000, awsRequestId: 'req-1' };

/** Runs `record` inside a handler the way the Lambdas do, so the middleware flushes what it added. */
async function invoke(record: () => void, fail = false): Promise<void> {
  const handler = lambdaHandler(
    async () => {
      record();
      if (fail) throw new Error('step failed');
    },
    { metrics: true },
  );
  await handler({}, CONTEXT).catch(() => undefined);
}

type Emf = {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
} & Record<string, unknown>;

let lines: string[] = [];
const write = process.stdout.write.bind(process.stdout);

beforeEach(() => {
  lines = [];
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = write;
});

const emitted = (): Emf[] =>
  lines
    .join('')
    .split('\n')
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Emf);

const task = {
  runId: 'r',
  scheduleId: 's',
  reportId: 'posts',
  scheduledTime: '2026-11-23T07:00:00Z',
  window: { start: '2026-11-16', end: '2026-11-22', timezone: 'UTC' },
};

describe('handler metrics', () => {
  it('records an export step: rows, pages, retries, duration and a continuation', async () => {
    const result: ExportStepResult = {
      status: 'continue',
      task,
      checkpoint: {},
      step: { rows: 200, pages: 2, retries: 1 },
    };
    await invoke(() => recordStep(result, 1234));
    const [emf] = emitted();
    expect(emf?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'ReportExporter',
      Dimensions: [['service']],
    });
    expect(emf).toMatchObject({
      service: 'report-exporter',
      rows: 200,
      pages: 2,
      retries: 1,
      exportDuration: 1234,
      continuations: 1,
    });
  });

  it('records a finished run with the rows of all reports and whether it succeeded', async () => {
    const report = (rowCount: number, status: 'succeeded' | 'failed') => ({
      reportId: `r${rowCount}`,
      route: 'posts/performance',
      status,
      rowCount,
      pages: 1,
      columns: [],
      totals: {},
      error: status === 'failed' ? 'x' : null,
      files: [],
    });
    const manifest: Manifest = {
      manifestVersion: 1,
      scheduleId: 's',
      runId: 'r',
      scheduledTime: task.scheduledTime,
      window: task.window,
      startedAt: task.scheduledTime,
      finishedAt: task.scheduledTime,
      status: 'partial',
      reports: [report(10, 'succeeded'), report(0, 'failed')],
    };
    await invoke(() => recordRun(manifest));
    expect(emitted()[0]).toMatchObject({
      runsCompleted: 1,
      runsNotSucceeded: 1,
      rowsExported: 10,
      reportsFailedInRun: 1,
    });
  });

  it('flushes what was recorded when the invocation throws', async () => {
    await invoke(() => recordRun({ ...baseManifest(), reports: [] }), true);
    expect(emitted()[0]).toMatchObject({ runsCompleted: 1, runsNotSucceeded: 0 });
  });
});

function baseManifest(): Manifest {
  return {
    manifestVersion: 1,
    scheduleId: 's',
    runId: 'r',
    scheduledTime: task.scheduledTime,
    window: task.window,
    startedAt: task.scheduledTime,
    finishedAt: task.scheduledTime,
    status: 'succeeded',
    reports: [],
  };
}
