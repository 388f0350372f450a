/** The subject line (docs/email.md): `{title}: {start} – {end}`, prefixed by run status; operators' marked. */
import type { Manifest } from '../manifest';
import { headerSafe } from './format';

const PREFIX = { succeeded: '', partial: 'PARTIAL: ', failed: 'FAILED: ' } as const;

/**
 * Builds the subject. The title is config text but is passed through `headerSafe` anyway, so a
 * CR/LF can never reach the header even if validation were bypassed.
 */
export function subjectFor(
  title: string,
  manifest: Manifest,
  audience: 'stakeholders' | 'operators' = 'stakeholders',
): string {
  const { start, end } = manifest.window;
  const suffix = audience === 'operators' ? ' (run details)' : '';
  return headerSafe(`${PREFIX[manifest.status]}${headerSafe(title, 150)}: ${start} – ${end}${suffix}`, 200);
}
