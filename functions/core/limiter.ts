/**
 * The core's one concurrency primitive: a counting semaphore; at most `limit` tasks run at once, the
 * rest wait in FIFO order. An in-process run exports its reports through one (`run/run.ts`). One per
 * API client bounds the requests in flight across every report that shares the client: there a slot
 * is held only while a request is on the wire — never during a backoff sleep or while waiting for a
 * token — so a waiting retry cannot starve the others and a token fetch cannot deadlock behind them.
 */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be ≥ 1, got ${limit}`);
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  const acquire = (): Promise<void> => {
    if (active < limit) {
      active++;
      return Promise.resolve();
    }
    // the slot passes straight from the releasing task to the next waiter (active stays the same)
    return new Promise((resolve) => queue.push(resolve));
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
