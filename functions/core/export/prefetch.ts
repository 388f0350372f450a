/**
 * Reads one item ahead of the consumer: while the caller encodes page N, page N+1 is already being
 * fetched. Exactly one request is ever ahead, so memory stays at two pages. When the consumer stops
 * early, `onStop` runs (the caller aborts the in-flight request with it) and the source is closed
 * without waiting for that request.
 */
export async function* prefetchOne<T>(source: AsyncIterable<T>, onStop: () => void): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  let finished = false;
  try {
    for (;;) {
      const result = await next;
      if (result.done) {
        finished = true;
        return;
      }
      next = it.next();
      yield result.value;
    }
  } finally {
    if (!finished) {
      onStop();
      // The pending fetch rejects once aborted; nobody is waiting for it any more.
      next.catch(() => undefined);
      void Promise.resolve(it.return?.()).catch(() => undefined);
    }
  }
}
