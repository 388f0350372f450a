/**
 * Reads one item ahead of the consumer: while the caller encodes page N, page N+1 is already being
 * fetched. Exactly one request is ever ahead, so memory stays at two pages. When the consumer stops
 * early, `onStop` runs (the caller aborts the in-flight request with it) and the source is closed
 * without waiting for that request.
 */
export async function* prefetchOne<T>(source: AsyncIterable<T>, onStop: () => void): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  // A prefetched page may fail while the consumer is busy; mark it handled now, rethrow on await.
  const ahead = () => {
    const p = it.next();
    p.catch(() => undefined);
    return p;
  };
  let next = ahead();
  let finished = false;
  try {
    for (;;) {
      const result = await next;
      if (result.done) {
        finished = true;
        return;
      }
      next = ahead();
      yield result.value;
    }
  } finally {
    if (!finished) {
      onStop();
      void Promise.resolve(it.return?.()).catch(() => undefined);
    }
  }
}
