/**
 * Reads up to `depth` items ahead of the consumer: while the caller encodes page N, pages N+1… are
 * already being fetched (one after another — cursor paging is sequential), so fetching goes on while
 * a row group is being encoded. Back-pressure: no more than `depth` pages are ever requested beyond
 * what the consumer has taken, so memory stays at `depth + 1` pages. Each page is handed over only
 * after one event-loop turn, so the next request is on the wire before the consumer starts on the
 * page (flattening a page is a run of synchronous work that holds back the socket write otherwise).
 * When the consumer stops early,
 * `onStop` runs (the caller aborts the in-flight request with it) and the source is closed without
 * waiting for that request.
 */
/** Pages read ahead per report by the export step (bench/RESULTS.md, docs/performance.md). */
export const PAGES_AHEAD = 4;

export async function* readAhead<T>(
  source: AsyncIterable<T>,
  depth: number,
  onStop: () => void,
): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  // A prefetched page may fail while the consumer is busy; mark it handled now, rethrow on await.
  // An async generator queues next() calls and answers them in order, so `depth` of them may wait.
  const ahead = () => {
    const p = it.next();
    p.catch(() => undefined);
    return p;
  };
  const queue = Array.from({ length: Math.max(1, depth) }, ahead);
  let finished = false;
  // let go once the consumer has it: a suspended generator keeps its variables' values, and a page
  // held here while the next is awaited is a page more in memory (docs/performance.md)
  let result: IteratorResult<T> | undefined;
  try {
    for (;;) {
      const next = queue.shift();
      if (next === undefined) return;
      result = await next;
      if (result.done) {
        finished = true;
        return;
      }
      queue.push(ahead());
      // One event-loop turn before the consumer's long run of work on this page: the request for the
      // next page, already started, leaves for the server now instead of after it (measured at 100 ms a
      // page: 5.8 ms a page of wait without this turn, none with it).
      await new Promise((resolve) => setTimeout(resolve, 0));
      yield result.value;
      result = undefined;
    }
  } finally {
    if (!finished) {
      onStop();
      void Promise.resolve(it.return?.()).catch(() => undefined);
    }
  }
}
