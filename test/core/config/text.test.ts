import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config/load';
import { decodeConfigText } from '#core/config/text';

/** The text in UTF-16 with or without a byte order mark (Node has no UTF-16BE encoder). */
function utf16(text: string, order: 'le' | 'be', bom: boolean): Uint8Array {
  const le = Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf16le');
  if (order === 'be') le.swap16();
  return new Uint8Array(le);
}

const YAML = `api: { baseUrl: "https://reporting.example.com", credentialsSecret: reporting/v2/client }
schedules:
  - id: daily
    cron: "0 6 * * ? *"
    window: yesterday
    description: Überblick – täglich
    reports:
      - { id: posts, route: posts/performance, metrics: [likes] }
`;

describe('the text of a config file', () => {
  it('reads a config saved as UTF-16 with a BOM (Windows editors) like the UTF-8 one', () => {
    const utf8 = parseConfig(YAML);
    for (const order of ['le', 'be'] as const) {
      expect(parseConfig(decodeConfigText(utf16(YAML, order, true), 'r.yaml'))).toEqual(utf8);
      expect(parseConfig(decodeConfigText(utf16(YAML, order, false), 'r.yaml'))).toEqual(utf8);
    }
    const bom8 = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(YAML)]);
    expect(parseConfig(decodeConfigText(bom8, 'r.yaml'))).toEqual(utf8);
  });

  it('names a file that is neither, with the offset of the first bad byte', () => {
    const latin1 = Buffer.from('api: {}\n# Gr\u00fc\u00dfe\n', 'latin1');
    expect(() => decodeConfigText(new Uint8Array(latin1), 'reports.yaml')).toThrow(
      'reports.yaml is not UTF-8 text (byte 0xfc at offset 12): save it as UTF-8',
    );
  });

  test.prop([fc.string({ unit: 'grapheme', maxLength: 200 }), fc.boolean()], { numRuns: 300, seed: 23 })(
    'decodes any text saved as UTF-8 or as UTF-16 with a BOM back to itself',
    (text, bom) => {
      const body = text.replace(/^\uFEFF/, '');
      expect(decodeConfigText(new Uint8Array(Buffer.from(body)), 'x')).toBe(body);
      expect(decodeConfigText(utf16(body, 'le', true), 'x')).toBe(body);
      expect(decodeConfigText(utf16(body, 'be', true), 'x')).toBe(body);
      if (bom)
        expect(decodeConfigText(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(body)]), 'x')).toBe(body);
    },
  );
});
