/**
 * Stack traces of a Lambda bundle in TypeScript terms, with its source map read when a trace is first
 * formatted rather than at every cold start. Node's `--enable-source-maps` reads, parses and caches the
 * map of each module as it loads it: 18–36 ms of a cold start here (docs/performance.md, "Lambda:
 * cold init"), paid by every container for traces only an error needs. This does the same mapping, in
 * Node's own format (test/handlers/stack-traces.test.ts holds it to what `--enable-source-maps` prints
 * for the same errors), with Node's own parser (`SourceMap` from `node:module`), at the first
 * `error.stack` read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { fileURLToPath } from 'node:url';

type CallSite = NodeJS.CallSite;
/** What `SourceMap#findEntry` returns: `{}` where the map has nothing, and the range's `name` if any. */
type Entry = Partial<SourceMapping> & { readonly name?: string };

/** The map's entry at a 1-based position of the bundle, as a call site gives it. */
const entryAt = (sm: SourceMap, line: number | null, column: number | null): Entry =>
  sm.findEntry((line ?? 0) - 1, (column ?? 0) - 1);

/**
 * The bundles whose frames are mapped, by the names V8 gives their frames, shared by every bundle in
 * the process (one in a Lambda; the tests load three, each with its own copy of this module).
 */
const REGISTRY = Symbol.for('report-exporter.lazy-source-maps');
type Registry = Map<string, () => SourceMap | null>;

/**
 * Maps the frames of `bundleUrl` (the bundle's own `import.meta.url`) through the source map beside it
 * (`<bundle>.map`), read at the first trace. Does nothing where there is no map (run from source, as the
 * tests do) or where Node already maps traces (`--enable-source-maps`).
 */
export function mapStackTracesLazily(bundleUrl: string): void {
  if (!bundleUrl.startsWith('file:') || process.sourceMapsEnabled) return;
  const bundlePath = fileURLToPath(bundleUrl);
  const mapFile = `${bundlePath}.map`;
  if (!existsSync(mapFile)) return;
  let map: SourceMap | null | undefined;
  const sourceMap = (): SourceMap | null => {
    if (map !== undefined) return map;
    try {
      map = new SourceMap(absoluteSources(JSON.parse(readFileSync(mapFile, 'utf8')), bundleUrl));
    } catch {
      map = null; // an unreadable map leaves the traces as V8 writes them
    }
    return map;
  };
  const global = globalThis as { [REGISTRY]?: Registry };
  let registry = global[REGISTRY];
  if (!registry) {
    registry = new Map();
    global[REGISTRY] = registry;
    install(registry);
  }
  // Node names an ES module's frames by URL; a loader that runs it from its path, by path
  registry.set(bundleUrl, sourceMap).set(bundlePath, sourceMap);
}

/** Formats every trace, mapping the frames of the registry's bundles. */
function install(registry: Registry): void {
  Error.prepareStackTrace = (error, trace) => {
    const frames = trace.map((site, i) => {
      const sm = registry.get(site.getFileName() ?? '')?.() ?? null;
      return `\n    at ${(sm && mappedFrame(sm, trace, i)) ?? String(site)}`;
    });
    return `${errorString(error)}${frames.join('')}`;
  };
}

/** The map's sources as absolute URLs, as Node resolves them (against the map's own URL). */
function absoluteSources(payload: SourceMapPayload, bundleUrl: string): SourceMapPayload {
  const base = `${bundleUrl}.map`;
  const root = payload.sourceRoot ?? '';
  return { ...payload, sources: payload.sources.map((s) => new URL(`${root}${s}`, base).href) };
}

/**
 * One frame as Node 22's `--enable-source-maps` writes it (`serializeJSStackFrame` in Node's
 * lib/internal/source_map/prepare_stack_trace.js), or undefined where the map has no entry.
 */
function mappedFrame(sm: SourceMap, trace: CallSite[], i: number): string | undefined {
  const site = trace[i] as CallSite;
  const entry = entryAt(sm, site.getLineNumber(), site.getColumnNumber());
  const { originalSource, originalLine, originalColumn } = entry;
  if (originalSource === undefined || originalLine === undefined || originalColumn === undefined)
    return undefined;
  const name = originalSymbolName(sm, site, trace[i + 1]);
  const source = originalSource.startsWith('file://') ? fileURLToPath(originalSource) : originalSource;
  const fnName = site.getFunctionName() ?? site.getMethodName();
  const prefix = site.isAsync() ? 'async ' : site.isConstructor() ? 'new ' : '';
  const typeName = site.getTypeName();
  const namePrefix = typeName !== null && typeName !== 'global' ? `${typeName}.` : '';
  const mappedName = `${namePrefix}${name || fnName || '<anonymous>'}`;
  return `${prefix}${mappedName} (${source}:${originalLine + 1}:${originalColumn + 1})`;
}

/** The name the map gives the enclosing function, else the one at the caller's call site in the bundle. */
function originalSymbolName(sm: SourceMap, site: CallSite, caller: CallSite | undefined): string | undefined {
  const enclosing = entryAt(sm, site.getEnclosingLineNumber(), site.getEnclosingColumnNumber());
  if (enclosing.name) return enclosing.name;
  if (!caller || caller.getFileName() !== site.getFileName()) return undefined;
  return entryAt(sm, caller.getLineNumber(), caller.getColumnNumber()).name;
}

/** Whether Node marked the error as its own (`kIsNodeError`, on the prototype of its error classes). */
function isNodeError(error: object): boolean {
  for (let o: object | null = error; o; o = Object.getPrototypeOf(o))
    if (Object.getOwnPropertySymbols(o).some((s) => s.description === 'kIsNodeError')) return true;
  return false;
}

/**
 * The trace's first line, as Node writes it: `Error.prototype.toString`, with the code of Node's own
 * errors (`RangeError [ERR_OUT_OF_RANGE]: …`), which Node marks with a symbol it does not export.
 */
function errorString(error: Error): string {
  try {
    if (isNodeError(error)) return `${error.name} [${(error as { code?: unknown }).code}]: ${error.message}`;
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}
