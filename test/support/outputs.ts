/**
 * Everything a CLI run wrote, as text to search: each file below the given folders (exports,
 * manifests, .eml and .html emails), and for an .eml also its MIME parts decoded (base64 and
 * quoted-printable), so a search sees what a mail reader shows. Not a test file.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Path → text of every file below `roots` (a missing folder adds nothing); `.eml` also as `PATH (decoded parts)`. */
export async function readOutputs(roots: readonly string[]): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const root of roots) {
    for (const file of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
      if (!file.isFile()) continue;
      const path = join(file.parentPath, file.name);
      const text = await readFile(path, 'utf8');
      texts[path] = text;
      if (file.name.endsWith('.eml')) texts[`${path} (decoded parts)`] = decodeMimeParts(text);
    }
  }
  return texts;
}

/** The bodies of a MIME message, base64 and quoted-printable parts decoded. */
function decodeMimeParts(eml: string): string {
  const parts = eml.split(/\r?\n--[^\r\n]+\r?\n/);
  return parts
    .map((part) => {
      const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*base64/i.test(head))
        return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
        return Buffer.from(
          body
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8');
      }
      return body;
    })
    .join('\n');
}
