/** The subject line (docs/email.md): `{description or id}: {start} – {end}`, prefixed by run status. */
import type { Manifest } from '../manifest';
import { headerSafe } from './format';

const PREFIX = { succeeded: '', partial: 'PARTIAL: ', failed: 'FAILED: ' } as const;

/**
 * Builds the subject. The description is config text but is passed through `headerSafe` anyway, so a
 * CR/LF can never reach the header even if validation were bypassed.
 */
export function subjectFor(title: string, manifest: Manifest): string {
  const { start, end } = manifest.window;
  return headerSafe(`${PREFIX[manifest.status]}${headerSafe(title, 150)}: ${start} – ${end}`, 200);
}
