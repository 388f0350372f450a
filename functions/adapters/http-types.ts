/**
 * Options of the HTTP adapters that implement the core's `Http` (functions/core/api/http.ts): on the
 * undici package (`./http`: tests, benchmarks, the CLI from its sources), on `node:http` (`./http-node`:
 * the CLI's bundle) and on Node's built-in fetch (`./http-fetch`: the Lambda bundles). The last two
 * carry no HTTP library; `#http` picks one by import condition.
 */
import type { Dispatcher } from 'undici';
import type { HttpPool } from '#core/api/http';

export interface HttpOptions extends HttpPool {
  /** undici only: a dispatcher of the caller's (a MockAgent in tests); not closed by close(). */
  readonly dispatcher?: Dispatcher;
}
