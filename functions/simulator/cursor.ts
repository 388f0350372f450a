/**
 * Opaque paging cursors: standard base64 (so they carry `+`, `/` and always `=` padding, and must be
 * URL-encoded) of a small binary state plus a truncated HMAC, so a forged or altered cursor is
 * rejected with 400 instead of being trusted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CursorState {
  /** Hash of the route and query the cursor belongs to. */
  query: number;
  /** Position to resume from (row index or post ordinal). */
  position: number;
  /** Page counter, so an empty page's cursor differs from the one that fetched it. */
  page: number;
}

// 1 + 4 + 8 + 4 + 14 = 31 bytes: not a multiple of 3, so the base64 text always ends in '='
const MAC_BYTES = 14;
const SIZE = 1 + 4 + 8 + 4 + MAC_BYTES;

export class Cursors {
  private readonly key: Buffer;
  constructor(seed: number) {
    this.key = createHmac('sha256', 'report-exporter-simulator-cursor').update(String(seed)).digest();
  }

  encode(s: CursorState): string {
    const b = Buffer.alloc(SIZE);
    b.writeUInt8(2, 0);
    b.writeUInt32BE(s.query >>> 0, 1);
    b.writeDoubleBE(s.position, 5);
    b.writeUInt32BE(s.page >>> 0, 13);
    this.mac(b.subarray(0, 17)).copy(b, 17);
    return b.toString('base64');
  }

  /** The state in `text`, or null when it is not a cursor this simulator issued. */
  decode(text: string): CursorState | null {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
    const b = Buffer.from(text, 'base64');
    if (b.length !== SIZE || b.readUInt8(0) !== 2) return null;
    if (!timingSafeEqual(this.mac(b.subarray(0, 17)), b.subarray(17))) return null;
    const position = b.readDoubleBE(5);
    if (!Number.isInteger(position) || position < 0) return null;
    return { query: b.readUInt32BE(1), position, page: b.readUInt32BE(13) };
  }

  private mac(data: Buffer): Buffer {
    return createHmac('sha256', this.key).update(data).digest().subarray(0, MAC_BYTES);
  }
}
