/**
 * Where a report's column model lives: versioned objects `{report}/_model/v000001.json`, … beside the
 * report's data (keys.ts). The newest version is the model. Extending it is a compare-and-swap: plan
 * on the newest version N, then create version N+1 only if no one else has (S3 `If-None-Match: *`,
 * an exclusive create in a folder); when someone has, read the newer version and plan again on it.
 * So windows of one report exported at the same time never lose each other's columns, and every file
 * is written with a prefix of the model that was stored before it was opened.
 */
import { ExporterError } from '../errors';
import type { Sink } from '../sink';
import { modelKey, modelPrefix, modelVersionOf } from './keys';
import { type ColumnModel, ColumnModelSchema, sameModel } from './model';

export interface StoredModel {
  readonly model: ColumnModel;
  readonly version: number;
}

/** Reads and extends one report's model. */
export interface ModelStore {
  load(): Promise<StoredModel | null>;
  /** Stores `plan(latest)` unless it equals `latest`; retries on a lost race. Returns what is stored. */
  update(plan: (latest: ColumnModel | null) => ColumnModel): Promise<StoredModel>;
}

const MAX_ATTEMPTS = 50;

export function sinkModelStore(sink: Sink, prefix: string, scheduleId: string, reportId: string): ModelStore {
  const load = async (): Promise<StoredModel | null> => {
    const keys = await sink.list(modelPrefix(prefix, scheduleId, reportId));
    let version = 0;
    for (const k of keys) version = Math.max(version, modelVersionOf(k) ?? 0);
    if (version === 0) return null;
    const key = modelKey(prefix, scheduleId, reportId, version);
    const body = await sink.getObject(key);
    if (body === null) throw modelError(`${key} was listed but could not be read`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw modelError(`${key} is not JSON`);
    }
    const model = ColumnModelSchema.safeParse(parsed);
    if (!model.success) throw modelError(`${key} is not a column model`);
    return { model: model.data, version };
  };
  return {
    load,
    async update(plan) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const latest = await load();
        const next = plan(latest?.model ?? null);
        if (latest !== null && sameModel(latest.model, next)) return latest;
        const version = (latest?.version ?? 0) + 1;
        const key = modelKey(prefix, scheduleId, reportId, version);
        const body = `${JSON.stringify(next, null, 2)}\n`;
        if ((await sink.putIf(key, body, 'application/json', { ifNoneMatch: '*' })) !== null)
          return { model: next, version };
      }
      throw modelError(
        `could not store a new version after ${MAX_ATTEMPTS} attempts (too many writers at once)`,
      );
    },
  };
}

function modelError(what: string): ExporterError {
  return new ExporterError(
    'MODEL_UNREADABLE',
    `the report's column model: ${what}; restore the newest _model/ version from a backup or remove the broken one`,
  );
}

/** A model store in memory (tests, and exports that persist nothing). */
export function memoryModelStore(): ModelStore {
  let stored: StoredModel | null = null;
  return {
    load: async () => stored,
    async update(plan) {
      const next = plan(stored?.model ?? null);
      if (stored !== null && sameModel(stored.model, next)) return stored;
      stored = { model: next, version: (stored?.version ?? 0) + 1 };
      return stored;
    },
  };
}
