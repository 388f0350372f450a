/**
 * The narrow logging interface the core takes as an argument. The CLI wires it to stderr lines, the
 * Lambdas to Powertools' structured logger, the tests to a recorder. Fields must be secret-free:
 * the core never passes credentials, tokens or headers in.
 */
export type LogFields = Readonly<Record<string, unknown>>;

export interface Log {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const silentLog: Log = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
