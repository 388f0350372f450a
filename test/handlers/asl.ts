/**
 * A small interpreter for the subset of Amazon States Language the synthesized state machine uses
 * (Task, Pass, Choice with StringEquals, inline and Distributed Map, Catch, Parameters/ItemSelector
 * with `.$` paths and `States.JsonToString`, ResultPath, OutputPath, and optionally the payload limit
 * with `States.DataLimitExceeded`, which `States.ALL` does not catch), so the handler end-to-end runs
 * the *actual* definition from the template rather than a hand-written copy of it. Not a test file.
 *
 * Semantics follow the States Language spec for these fields. Retry on Task states: the first retrier
 * whose `ErrorEquals` names the error (or `States.ALL`) runs the task again after `IntervalSeconds` ×
 * `BackoffRate`^(attempt − 1), capped by `MaxDelaySeconds`, until its `MaxAttempts` (default 3) are
 * spent; then the error goes to Catch. The wait goes through `RunOptions.sleep` (default: none, the
 * run only records it in `Observed.retries`), so a test sees the back-off without waiting for it. A
 * Lambda error reaches Retry and Catch as `{Error, Cause}` the way Lambda reports it (`Cause` = JSON of
 * `{errorType, errorMessage}`).
 *
 * Distributed Map: `ItemReader` (s3:getObject, `InputType: JSON`) reads the items through `io`; each
 * item runs as a child execution (an uncaught error fails that child only); more failed children than
 * `ToleratedFailurePercentage` fail the Map (`States.ExceedToleratedFailureThreshold`); `ResultWriter`
 * writes the children's results through `io` the way Step Functions lays them out — `{Prefix}/{mapRunId}/
 * manifest.json` listing `SUCCEEDED_0.json` / `FAILED_0.json`, arrays of `{Input, Output | Error, Cause,
 * Status}` with input and output as JSON text — and the Map's result is `{MapRunArn,
 * ResultWriterDetails: {Bucket, Key}}`.
 */

type Json = unknown;
type State = Record<string, unknown> & { Type: string };
export interface Definition {
  readonly StartAt: string;
  readonly States: Readonly<Record<string, State>>;
}
/** Calls the Task's resource (here: `<LogicalId>` of a function) with the effective input. */
export type Invoke = (resource: string, input: Json) => Promise<Json>;

/** The S3 the Distributed Map's ItemReader and ResultWriter use. */
export interface MapIo {
  getObject(bucket: string, key: string): Promise<string>;
  putObject(bucket: string, key: string, body: string): Promise<void>;
}

/** Step Functions' limit on a state's output; `States.ALL` does not catch exceeding it. */
const DATA_LIMIT = 'States.DataLimitExceeded';

export interface Limits {
  /** Model the payload limit (256 KB on AWS) on Task and Map outputs. @default none */
  readonly payloadBytes?: number;
}

/** How a run is modelled: the payload limit, the Distributed Map's S3, what to record, how to wait. */
export interface RunOptions extends Limits {
  readonly io?: MapIo;
  readonly observed?: Observed;
  /** Waits a retrier's delay; default: returns at once. */
  readonly sleep?: (seconds: number) => Promise<void>;
}

function limited(value: Json, limits: Limits): Json {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (limits.payloadBytes !== undefined && bytes > limits.payloadBytes) {
    throw Object.assign(new Error(`the state output is ${bytes} bytes`), { name: DATA_LIMIT });
  }
  return value;
}

/** What a run saw, for assertions: every Distributed Map's item count, largest state value, retries. */
export interface Observed {
  mapItems: number[];
  largestState: number;
  /** Each retry: the state, the error it retried, and the delay before the next attempt. */
  retries?: { state: string; error: string; delaySeconds: number }[];
}

interface Retrier {
  readonly ErrorEquals: readonly string[];
  readonly IntervalSeconds?: number;
  readonly MaxAttempts?: number;
  readonly BackoffRate?: number;
  readonly MaxDelaySeconds?: number;
}

/** Calls `attempt` as the state's Retry says: the delay before the next try, or null to give up. */
async function withRetry(
  name: string,
  state: State,
  attempt: () => Promise<Json>,
  options: RunOptions & { observed: Observed },
): Promise<Json> {
  const retriers = (state.Retry ?? []) as Retrier[];
  const spent = new Array<number>(retriers.length).fill(0);
  for (;;) {
    try {
      return await attempt();
    } catch (err: unknown) {
      const error = asError(err).Error;
      // States.ALL matches every error but these two (the States Language spec)
      const all = error !== DATA_LIMIT && error !== 'States.Runtime';
      const i = retriers.findIndex(
        (r) => r.ErrorEquals.includes(error) || (all && r.ErrorEquals.includes('States.ALL')),
      );
      const retrier = retriers[i];
      if (retrier === undefined || (spent[i] as number) >= (retrier.MaxAttempts ?? 3)) throw err;
      const delay = Math.min(
        (retrier.IntervalSeconds ?? 1) * (retrier.BackoffRate ?? 2) ** (spent[i] as number),
        retrier.MaxDelaySeconds ?? Number.POSITIVE_INFINITY,
      );
      spent[i] = (spent[i] as number) + 1;
      options.observed.retries ??= [];
      options.observed.retries.push({ state: name, error, delaySeconds: delay });
      await options.sleep?.(delay);
    }
  }
}

interface Context {
  readonly Map?: { Item: { Value: Json; Index: number } };
}

function readPath(path: string, input: Json, context: Context): Json {
  const [root, rest] = path.startsWith('$$') ? [context as Json, path.slice(2)] : [input, path.slice(1)];
  let value = root;
  for (const key of rest.split('.').filter(Boolean)) {
    if (value === null || typeof value !== 'object' || !(key in value)) {
      throw Object.assign(new Error(`path ${path} not found`), { name: 'States.Runtime' });
    }
    value = (value as Record<string, Json>)[key];
  }
  return value;
}

function evaluate(template: Json, input: Json, context: Context): Json {
  if (template === null || typeof template !== 'object') return template;
  if (Array.isArray(template)) return template.map((t) => evaluate(t, input, context));
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(template)) {
    if (!key.endsWith('.$')) {
      out[key] = evaluate(value, input, context);
      continue;
    }
    const expr = String(value);
    const fn = /^States\.JsonToString\((.+)\)$/.exec(expr);
    out[key.slice(0, -2)] = fn
      ? JSON.stringify(readPath(fn[1] ?? '$', input, context))
      : readPath(expr, input, context);
  }
  return out;
}

function withResult(input: Json, resultPath: unknown, result: Json): Json {
  if (resultPath === undefined || resultPath === '$') return result;
  if (resultPath === null) return input;
  const copy = structuredClone(input) as Record<string, Json>;
  const keys = String(resultPath).slice(2).split('.');
  let target = copy;
  for (const k of keys.slice(0, -1)) {
    target[k] ??= {};
    target = target[k] as Record<string, Json>;
  }
  target[keys[keys.length - 1] ?? ''] = result;
  return copy;
}

function output(state: State, value: Json, context: Context): Json {
  return state.OutputPath === undefined ? value : readPath(String(state.OutputPath), value, context);
}

function asError(err: unknown): { Error: string; Cause: string } {
  const e = err instanceof Error ? err : new Error(String(err));
  return { Error: e.name, Cause: JSON.stringify({ errorType: e.name, errorMessage: e.message }) };
}

/** Runs a definition (or a Map's ItemProcessor) to its End and returns the final output. */
export async function runStates(
  def: Definition,
  input: Json,
  invoke: Invoke,
  context: Context = {},
  options: RunOptions = {},
): Promise<Json> {
  const observed = options.observed ?? { mapItems: [], largestState: 0 };
  const run = { ...options, observed };
  let name: string | undefined = def.StartAt;
  let value = input;
  while (name !== undefined) {
    observed.largestState = Math.max(observed.largestState, JSON.stringify(value ?? null).length);
    const state: State | undefined = def.States[name];
    if (!state) throw new Error(`no state ${name}`);
    let next: string | undefined = state.End === true ? undefined : (state.Next as string | undefined);
    switch (state.Type) {
      case 'Task': {
        const effective = state.Parameters ? evaluate(state.Parameters, value, context) : value;
        try {
          const result = await withRetry(
            name,
            state,
            async () => limited(await invoke(String(state.Resource), effective), options),
            run,
          );
          value = output(state, withResult(value, state.ResultPath, result), context);
        } catch (err: unknown) {
          ({ value, next } = caught(state, err, value));
        }
        break;
      }
      case 'Pass': {
        const result = state.Parameters ? evaluate(state.Parameters, value, context) : value;
        value = output(state, withResult(value, state.ResultPath, result), context);
        break;
      }
      case 'Choice': {
        const choices = state.Choices as { Variable: string; StringEquals: string; Next: string }[];
        const hit = choices.find((c) => readPath(c.Variable, value, context) === c.StringEquals);
        next = hit ? hit.Next : (state.Default as string);
        break;
      }
      case 'Map': {
        try {
          value = await runMap(state, value, context, invoke, run);
        } catch (err: unknown) {
          ({ value, next } = caught(state, err, value));
        }
        break;
      }
      default:
        throw new Error(`state type ${state.Type} is not modelled`);
    }
    name = next;
  }
  return value;
}

interface Child {
  readonly input: Json;
  readonly output?: Json;
  readonly error?: { Error: string; Cause: string };
}

interface ResultWriter {
  readonly Resource: string;
  readonly Parameters: Record<string, Json>;
}

/** The Map's items: from S3 (ItemReader, a JSON array) or from the state (ItemsPath). */
async function mapItems(state: State, value: Json, context: Context, io?: MapIo): Promise<Json[]> {
  const reader = state.ItemReader as
    | { Resource: string; ReaderConfig?: { InputType?: string }; Parameters: Record<string, Json> }
    | undefined;
  if (!reader) return readPath(String(state.ItemsPath ?? '$'), value, context) as Json[];
  if (!reader.Resource.endsWith(':s3:getObject') || reader.ReaderConfig?.InputType !== 'JSON') {
    throw new Error(`ItemReader ${reader.Resource} is not modelled`);
  }
  if (!io) throw new Error('a Map with an ItemReader needs the io argument');
  const { Bucket, Key } = evaluate(reader.Parameters, value, context) as { Bucket: string; Key: string };
  const items: unknown = JSON.parse(await io.getObject(Bucket, Key));
  if (!Array.isArray(items))
    throw Object.assign(new Error('ItemReader: not a JSON array'), { name: 'States.ItemReaderFailed' });
  return items;
}

/** Writes the children's results as Step Functions' ResultWriter does; returns the Map's output. */
async function writeResults(
  writer: ResultWriter,
  value: Json,
  context: Context,
  results: readonly Child[],
  io?: MapIo,
): Promise<Json> {
  if (!writer.Resource.endsWith(':s3:putObject'))
    throw new Error(`ResultWriter ${writer.Resource} is not modelled`);
  if (!io) throw new Error('a Map with a ResultWriter needs the io argument');
  const { Bucket, Prefix } = evaluate(writer.Parameters, value, context) as {
    Bucket: string;
    Prefix: string;
  };
  const mapRunId = crypto.randomUUID();
  const mapRunArn = `arn:aws:states:eu-central-1:123456789012:mapRun:machine/ExportReports:${mapRunId}`;
  const files: Record<'SUCCEEDED' | 'FAILED' | 'PENDING', { Key: string; Size: number }[]> = {
    SUCCEEDED: [],
    FAILED: [],
    PENDING: [],
  };
  for (const status of ['SUCCEEDED', 'FAILED'] as const) {
    const entries = results
      .filter((r) => (status === 'FAILED') === (r.error !== undefined))
      .map((r, i) => ({
        ExecutionArn: `${mapRunArn}:${status}-${i}`,
        Input: JSON.stringify(r.input),
        InputDetails: { Included: true },
        Name: `${status}-${i}`,
        Status: status,
        ...(r.error ? r.error : { Output: JSON.stringify(r.output), OutputDetails: { Included: true } }),
      }));
    if (entries.length === 0) continue;
    const key = `${Prefix}/${mapRunId}/${status}_0.json`;
    const body = JSON.stringify(entries);
    await io.putObject(Bucket, key, body);
    files[status].push({ Key: key, Size: body.length });
  }
  const manifestKey = `${Prefix}/${mapRunId}/manifest.json`;
  await io.putObject(
    Bucket,
    manifestKey,
    JSON.stringify({ DestinationBucket: Bucket, MapRunArn: mapRunArn, ResultFiles: files }),
  );
  return { MapRunArn: mapRunArn, ResultWriterDetails: { Bucket, Key: manifestKey } };
}

/** A state's Catch for `err` (States.ALL or the error's name): the caught value and where to go. */
function caught(state: State, err: unknown, value: Json): { value: Json; next: string } {
  const catcher = (
    (state.Catch ?? []) as { ErrorEquals: string[]; ResultPath?: string; Next: string }[]
  ).find((c) => c.ErrorEquals.includes('States.ALL') || c.ErrorEquals.includes(asError(err).Error));
  if (!catcher) throw err;
  return { value: withResult(value, catcher.ResultPath, asError(err)), next: catcher.Next };
}

/** A Map state: its items through the ItemProcessor; the state's output. */
async function runMap(
  state: State,
  value: Json,
  context: Context,
  invoke: Invoke,
  options: RunOptions & { observed: Observed },
): Promise<Json> {
  const { io, observed } = options;
  const items = await mapItems(state, value, context, io);
  const processor = state.ItemProcessor as Definition & { ProcessorConfig?: { Mode?: string } };
  const distributed = processor.ProcessorConfig?.Mode === 'DISTRIBUTED';
  if (distributed) observed.mapItems.push(items.length);
  const limit = Number(state.MaxConcurrency ?? 0) || items.length;
  const results: Child[] = new Array(items.length);
  let cursor = 0;
  const worker = async () => {
    for (let i = cursor++; i < items.length; i = cursor++) {
      const itemContext: Context = { Map: { Item: { Value: items[i], Index: i } } };
      const itemInput = state.ItemSelector ? evaluate(state.ItemSelector, value, itemContext) : items[i];
      try {
        const output = await runStates(processor, itemInput, invoke, itemContext, options);
        results[i] = { input: itemInput, output };
      } catch (err: unknown) {
        if (!distributed) throw err; // an inline Map fails with its iteration
        results[i] = { input: itemInput, error: asError(err) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failed = results.filter((r) => r.error).length;
  const tolerated = Number(state.ToleratedFailurePercentage ?? 0);
  if (failed > 0 && (failed / results.length) * 100 > tolerated) {
    throw Object.assign(new Error(`${failed} of ${results.length} child executions failed`), {
      name: 'States.ExceedToleratedFailureThreshold',
    });
  }
  const result = state.ResultWriter
    ? await writeResults(state.ResultWriter as ResultWriter, value, context, results, io)
    : results.map((r) => r.output);
  return output(state, withResult(value, state.ResultPath, limited(result, options)), context);
}
