/**
 * The text of a config file from its bytes. Editors on Windows save YAML as UTF-16 (with a byte order
 * mark) or UTF-8 with a BOM; both are read. UTF-16 without a BOM is recognised by its NUL bytes. Any
 * other bytes that are not UTF-8 are refused with the offset of the first bad byte and what to do,
 * instead of reaching the YAML parser as replacement characters.
 */
import { ExporterError } from '../errors';

/** Decodes a config file: UTF-8 (BOM optional) or UTF-16 LE/BE (BOM, or NUL-byte pattern). */
export function decodeConfigText(bytes: Uint8Array, source: string): string {
  const encoding = encodingOf(bytes);
  try {
    // TextDecoder drops the BOM of its own encoding
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new ExporterError(
      'CONFIG_INVALID',
      `${source} is not ${encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase()} text${at === null ? '' : ` (byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at})`}: save it as UTF-8`,
      { details: { problems: [`${source}: not ${encoding} text`] } },
    );
  }
}

function encodingOf(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  // no BOM: YAML is mostly ASCII, so UTF-16 shows as a NUL beside nearly every other byte
  if (bytes.length >= 4 && bytes.length % 2 === 0) {
    const pairs = Math.min(bytes.length, 512) / 2;
    let evenNul = 0;
    let oddNul = 0;
    for (let i = 0; i < pairs * 2; i += 2) {
      if (bytes[i] === 0) evenNul++;
      if (bytes[i + 1] === 0) oddNul++;
    }
    if (oddNul > pairs * 0.8 && evenNul === 0) return 'utf-16le';
    if (evenNul > pairs * 0.8 && oddNul === 0) return 'utf-16be';
  }
  return 'utf-8';
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or null. */
function firstInvalidUtf8(bytes: Uint8Array): number | null {
  let lo = 0;
  let hi = bytes.length;
  // the longest prefix that decodes (a prefix may end inside a sequence: allow 3 bytes of slack)
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo >= bytes.length ? null : lo;
}
