/**
 * Benchmark exporter child. Runs in its own process so its wall time, CPU and peak RSS are its own
 * (the simulator runs in another child). Argument: one JSON object (see `Job`). Prints one JSON line:
 * `{wallMs, cpuMs, maxRssMiB, rows, pages}`; wall and CPU start after module loading, peak RSS is the
 * whole process's (`process.resourceUsage().maxRSS`).
 *
 * - `export`: `exportReportStep` for every task in parallel on one API client (Parquet + CSV, local
 *   sink), exactly as `runSchedule` exports a run's reports.
 * - `fetch`: the same pages through the same client and concurrency, parsed and discarded.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { createEncoderPool, defaultWorkerCount } from '#adapters/encoder-pool';
import { createFsSink } from '#adapters/fs-sink';
import { createApiClient } from '#core/api/client';
import { validateConfig } from '#core/config/load';
import { silentLog } from '#core/log';
import { exportReportStep } from '#core/run/export-step';
import { reportRequest } from '#core/run/request';
import { createHttp } from '#http';

interface Job {
  mode: 'export' | 'fetch';
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  concurrency: number;
  pageSize: number;
  metrics: string[];
  /** One report per task, exported in parallel. */
  tasks: { start: string; end: string }[];
  outDir: string;
  rowGroupRows?: number;
  /**
   * `default` (as the CLI and the Lambda run on this host: `defaultWorkerCount()`, no worker on ≤ 2
   * cores); `worker`: a worker pool of `workers` (at least one); `inline`: this thread.
   */
  encoder?: 'default' | 'worker' | 'inline';
  /** Encoder workers for `worker` (default: the pool's, at least one). */
  workers?: number;
}

// The encoder pool re-enters this bundle as its worker: only the main thread runs the job.
if (isMainThread) await main(JSON.parse(process.argv[2] ?? '{}') as Job);

async function main(job: Job): Promise<void> {
  const config = validateConfig({
    api: {
      baseUrl: job.baseUrl,
      credentialsSecret: 'bench/unused',
      pageSize: job.pageSize,
      concurrency: job.concurrency,
    },
    output: { prefix: 'exports/', formats: ['parquet', 'csv'] },
    schedules: [
      {
        id: 'bench',
        cron: '0 8 * * ? *',
        window: 'yesterday',
        reports: job.tasks.map((_, i) => ({
          id: `posts-${i}`,
          route: 'posts/performance',
          metrics: job.metrics,
          summary: { kpis: ['likes'], topBy: 'likes', topN: 10 },
        })),
      },
    ],
  });
  const schedule = config.schedules[0];
  if (!schedule) throw new Error('no schedule');

  const api = createApiClient({
    http: createHttp,
    baseUrl: job.baseUrl,
    credentials: async () => ({ clientId: job.clientId, clientSecret: job.clientSecret }),
    pageSize: job.pageSize,
    concurrency: job.concurrency,
  });
  const sink = createFsSink(job.outDir);
  const workerCount =
    job.encoder === 'worker' ? (job.workers ?? Math.max(1, defaultWorkerCount())) : defaultWorkerCount();
  const encoder =
    job.mode === 'fetch' || job.encoder === 'inline'
      ? undefined
      : createEncoderPool({ workers: workerCount });
  // the worker loads its code once per process (a Lambda container keeps it): like module loading,
  // not part of the timed export; its start time is reported on its own
  const warm0 = performance.now();
  await encoder?.warm();
  const workerStartMs = encoder ? performance.now() - warm0 : 0;

  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const t0 = performance.now();
  let rows = 0;
  let pages = 0;
  const results = await Promise.all(
    job.tasks.map(async (t, i) => {
      const report = schedule.reports[i];
      if (!report) throw new Error('no report');
      const window = { start: t.start, end: t.end, timezone: 'UTC' };
      if (job.mode === 'fetch') {
        for await (const page of api.pages(reportRequest(report, window))) {
          rows += page.rows.length;
          pages += 1;
        }
        return 'done';
      }
      const task = {
        runId: 'bench',
        scheduleId: 'bench',
        reportId: report.id,
        scheduledTime: `${t.end}T08:00:00Z`,
        window,
      };
      const result = await exportReportStep(config, task, null, {
        api,
        sink,
        log: silentLog,
        ...(encoder ? { encoder } : {}),
        ...(job.rowGroupRows ? { tuning: { rowGroupRows: job.rowGroupRows } } : {}),
      });
      if (result.status !== 'done') throw new Error('export paused');
      const m = result.outcome.manifest;
      if (m.status !== 'succeeded') throw new Error(`export failed: ${m.error}`);
      rows += m.rowCount;
      pages += m.pages;
      return m.status;
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  delay.disable();
  await api.close();
  await encoder?.close();
  process.stdout.write(
    `${JSON.stringify({
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      /** Share of the wall time the event loop was busy (1 = never waiting for I/O). */
      eventLoopBusy: elu.utilization,
      /** 99th percentile of how late a 10 ms timer fired: how long the loop was blocked at a stretch. */
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      rows,
      pages,
      /** Encoder workers of the export (0: encoded on the main thread). */
      encoderWorkers: job.mode === 'fetch' || job.encoder === 'inline' ? 0 : workerCount,
      /** Time to start the encoder worker(s), before the timed span. */
      workerStartMs,
      results,
    })}\n`,
  );
}
