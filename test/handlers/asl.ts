/**
 * A small interpreter for the subset of Amazon States Language the synthesized state machine uses
 * (Task, Pass, Choice with StringEquals, inline Map, Catch, Parameters/ItemSelector with `.$` paths
 * and `States.JsonToString`, ResultPath, OutputPath, and optionally the payload limit with
 * `States.DataLimitExceeded`, which `States.ALL` does not catch), so the handler end-to-end runs the *actual*
 * definition from the template rather than a hand-written copy of it. Not a test file.
 *
 * Semantics follow the States Language spec for these fields; Retry is not modelled (a thrown error
 * goes straight to Catch), and a Lambda error reaches Catch as `{Error, Cause}` the way Lambda reports
 * it (`Cause` = JSON of `{errorType, errorMessage}`).
 */

type Json = unknown;
type State = Record<string, unknown> & { Type: string };
export interface Definition {
  readonly StartAt: string;
  readonly States: Readonly<Record<string, State>>;
}
/** Calls the Task's resource (here: `<LogicalId>` of a function) with the effective input. */
export type Invoke = (resource: string, input: Json) => Promise<Json>;

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

/** Step Functions' limit on a state's output; `States.ALL` does not catch exceeding it. */
const DATA_LIMIT = 'States.DataLimitExceeded';

function limited(value: Json, limits: Limits): Json {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (limits.payloadBytes !== undefined && bytes > limits.payloadBytes) {
    throw Object.assign(new Error(`the state output is ${bytes} bytes`), { name: DATA_LIMIT });
  }
  return value;
}

type Catcher = { ErrorEquals: string[]; ResultPath?: string; Next: string };

/** The Catch that handles `err`: by name, or `States.ALL` for anything but a data limit. */
function catcherFor(state: State, err: unknown): Catcher | undefined {
  const name = asError(err).Error;
  return ((state.Catch ?? []) as Catcher[]).find(
    (c) => c.ErrorEquals.includes(name) || (name !== DATA_LIMIT && c.ErrorEquals.includes('States.ALL')),
  );
}

export interface Limits {
  /** Model the payload limit (256 KB on AWS) on Task and Map outputs. @default none */
  readonly payloadBytes?: number;
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
  limits: Limits = {},
): Promise<Json> {
  let name: string | undefined = def.StartAt;
  let value = input;
  while (name !== undefined) {
    const state: State | undefined = def.States[name];
    if (!state) throw new Error(`no state ${name}`);
    let next: string | undefined = state.End === true ? undefined : (state.Next as string | undefined);
    switch (state.Type) {
      case 'Task': {
        const effective = state.Parameters ? evaluate(state.Parameters, value, context) : value;
        try {
          const result = limited(await invoke(String(state.Resource), effective), limits);
          value = output(state, withResult(value, state.ResultPath, result), context);
        } catch (err: unknown) {
          const catcher = catcherFor(state, err);
          if (!catcher) throw err;
          value = withResult(value, catcher.ResultPath, asError(err));
          next = catcher.Next;
        }
        break;
      }
      case 'Pass': {
        const result =
          state.Result !== undefined
            ? state.Result
            : state.Parameters
              ? evaluate(state.Parameters, value, context)
              : value;
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
        const items = readPath(String(state.ItemsPath ?? '$'), value, context) as Json[];
        const processor = state.ItemProcessor as Definition;
        const limit = Number(state.MaxConcurrency ?? 0) || items.length;
        const results: Json[] = new Array(items.length);
        let cursor = 0;
        const worker = async () => {
          for (let i = cursor++; i < items.length; i = cursor++) {
            const itemContext: Context = { Map: { Item: { Value: items[i], Index: i } } };
            const itemInput = state.ItemSelector
              ? evaluate(state.ItemSelector, value, itemContext)
              : items[i];
            results[i] = await runStates(processor, itemInput, invoke, itemContext, limits);
          }
        };
        try {
          await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
          value = output(state, withResult(value, state.ResultPath, limited(results, limits)), context);
        } catch (err: unknown) {
          const catcher = catcherFor(state, err);
          if (!catcher) throw err;
          value = withResult(value, catcher.ResultPath, asError(err));
          next = catcher.Next;
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
