/**
 * The shared body decoder (functions/core/api/body.ts) as properties: any well-formed text survives
 * every charset and compression it can be sent in, with no invalid sequence counted; invalid bytes
 * are counted one per replacement.
 */

import { gzipSync } from 'node:zlib';
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsetParam, decodeBody, decodeText } from '#core/api/body';

const RUNS = Number(process.env.BODY_RUNS ?? 100);
/** Text as a JSON body starts: with an ASCII character (which JSON's UTF-16 sniffing relies on). */
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => `{${s}`);

describe('body decoding', () => {
  test.prop([wellFormed], { numRuns: RUNS, seed: 23 })(
    'reads well-formed text back from UTF-8 (with or without BOM) and UTF-16 with a BOM, counting nothing',
    (text) => {
      const utf8 = Buffer.from(text);
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      const be = Buffer.concat([
        Buffer.from([0xfe, 0xff]),
        Buffer.from(Buffer.from(text, 'utf16le')).swap16(),
      ]);
      for (const bytes of [utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), le, be]) {
        const out = decodeText(bytes, '');
        expect(out.text).toBe(text);
        expect(out.invalidSequences).toBe(0);
      }
    },
  );

  test.prop([wellFormed], { numRuns: RUNS, seed: 23 })('undoes gzip whatever the text', (text) => {
    const body = gzipSync(Buffer.from(text));
    const out = decodeBody({ status: 200, headers: { 'content-encoding': 'GZIP' }, body });
    expect(out.text).toBe(text);
  });

  test.prop([fc.array(fc.constantFrom(0x80, 0xbf, 0xc0, 0xff), { minLength: 1, maxLength: 8 })], {
    numRuns: RUNS,
    seed: 23,
  })('counts each lone invalid byte between ASCII as one invalid sequence', (bad) => {
    const bytes = Buffer.from(bad.flatMap((b) => [0x61, b]));
    expect(decodeText(bytes, 'utf-8').invalidSequences).toBe(bad.length);
  });

  it('reads the charset parameter, quoted or not, in any case', () => {
    expect(charsetParam('application/json; Charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(charsetParam('application/json;charset=utf-16LE; q=1')).toBe('utf-16le');
    expect(charsetParam('application/json')).toBe('');
  });
});
