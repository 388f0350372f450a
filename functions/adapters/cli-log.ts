/**
 * The CLI's log and progress. On a TTY: a `cli-progress` bar per report (pages, rows) plus a total
 * of reports done; log lines go above the bars. Otherwise plain `level message k=v` lines on stderr.
 * Only secret-free fields reach here (the core never passes credentials in).
 */
import type { MultiBar, SingleBar } from 'cli-progress';
import type { Log, LogFields } from '#core/log';
import type { ExportProgress } from '#core/run/types';

export interface CliLog extends Log {
  /** Feed from `ExportDeps.onProgress`. */
  progress(update: ExportProgress): void;
  /** Starts a progress display for a run of `reports` reports (no-op when not a TTY). */
  startRun(label: string, reports: number): void;
  /** Stops the bars (call before printing the final summary). */
  stop(): void;
}

function line(level: string, message: string, fields?: LogFields): string {
  const kv = Object.entries(fields ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${new Date().toISOString()} ${level.padEnd(5)} ${message}${kv ? ` ${kv}` : ''}`;
}

type Bars = typeof import('cli-progress');

export interface CliLogOptions {
  readonly verbose?: boolean;
  /** Default: whether stderr is a terminal. */
  readonly tty?: boolean;
}

/**
 * The CLI's log, with progress bars when stderr is a terminal: `cli-progress` (and the text-width
 * tables it brings) is loaded only then, not at every start.
 */
export async function openCliLog(options: CliLogOptions = {}): Promise<CliLog> {
  const tty = options.tty ?? Boolean(process.stderr.isTTY);
  return createCliLog({ ...options, tty }, tty ? (await import('cli-progress')).default : undefined);
}

/** `openCliLog` with `cli-progress` given (bars only with it, on a terminal). */
export function createCliLog(options: CliLogOptions = {}, cliProgress?: Bars): CliLog {
  const tty = (options.tty ?? Boolean(process.stderr.isTTY)) && cliProgress !== undefined;
  let multi: MultiBar | null = null;
  let total: SingleBar | null = null;
  const bars = new Map<string, SingleBar>();
  let done = 0;

  const emit = (level: string, message: string, fields?: LogFields) => {
    const text = line(level, message, fields);
    if (multi) multi.log(`${text}\n`);
    else process.stderr.write(`${text}\n`);
  };

  return {
    debug: (m, f) => {
      if (options.verbose) emit('debug', m, f);
    },
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    startRun(label, reports) {
      done = 0;
      if (!tty || cliProgress === undefined) return;
      multi = new cliProgress.MultiBar(
        {
          stream: process.stderr,
          clearOnComplete: false,
          hideCursor: true,
          format: ' {name} | {status} | {pages} pages | {rows} rows',
        },
        cliProgress.Presets.shades_grey,
      );
      total = multi.create(reports, 0, { name: label.padEnd(20), status: 'reports', pages: '-', rows: '-' });
      total.update(0, { status: `0/${reports} reports done` });
    },
    progress(p) {
      if (!multi) {
        // Plain mode: the core logs each report's end; page progress only when verbose.
        if (options.verbose && !p.done)
          emit('debug', 'page', { reportId: p.reportId, pages: p.pages, rows: p.rows });
        return;
      }
      let bar = bars.get(p.reportId);
      if (!bar) {
        bar = multi.create(1, 0, { name: p.reportId.padEnd(20), status: 'exporting', pages: 0, rows: 0 });
        bars.set(p.reportId, bar);
      }
      bar.update(p.done ? 1 : 0, {
        status: p.done ? 'done     ' : 'exporting',
        pages: p.pages,
        rows: p.rows,
      });
      if (p.done && total) {
        done += 1;
        total.update(done, { status: `${done}/${total.getTotal()} reports done` });
      }
    },
    stop() {
      multi?.stop();
      multi = null;
      total = null;
      bars.clear();
    },
  };
}
