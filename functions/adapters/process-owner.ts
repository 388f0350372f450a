/** This process as a lease owner: host and pid, and whether another pid of this host still exists. */
import type { LocalOwner } from '#core/commit/lease';
import { alive, safeHost } from './fs-temp';

export function processOwner(): LocalOwner {
  return { host: safeHost(), pid: process.pid, alive };
}
