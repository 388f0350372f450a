import { describe, expect, it } from 'vitest';
import { FORMAT_IDS, formatSpec } from '#core/export/formats';
import {
  manifestKey,
  manifestWindowEnd,
  modelKey,
  modelVersionOf,
  parsePartKey,
  partitionPrefix,
  partKey,
} from '#core/export/keys';

describe('the object-key layout (built and parsed in one module)', () => {
  it('parses every key it builds, for every registered format', () => {
    for (const format of FORMAT_IDS) {
      const folder = partitionPrefix('exports/', 'weekly', 'posts', format, '2026-11-22');
      const key = partKey(folder, format, 12);
      expect(key).toBe(
        `exports/weekly/posts/${format}/dt=2026-11-22/part-00012.${formatSpec(format).extension}`,
      );
      expect(parsePartKey(key)).toEqual({
        reportId: 'posts',
        format,
        windowEnd: '2026-11-22',
        fileName: key.split('/').pop(),
        index: 12,
      });
    }
    expect(manifestWindowEnd(manifestKey('a/b/', 'weekly', '2026-11-22'))).toBe('2026-11-22');
    expect(modelVersionOf(modelKey('', 'weekly', 'posts', 7))).toBe(7);
  });

  it('rejects keys that are not its own', () => {
    expect(parsePartKey('exports/weekly/posts/xml/dt=2026-11-22/part-00000.xml')).toBeNull();
    expect(parsePartKey('exports/weekly/posts/csv/dt=2026-11-22/part-00000.parquet')).toBeNull();
    expect(parsePartKey('exports/weekly/posts/csv/dt=2026-11-22/_SUCCESS')).toBeNull();
    expect(manifestWindowEnd('exports/weekly/_manifests/dt=2026-11-22/other.json')).toBeNull();
    expect(modelVersionOf('exports/weekly/posts/_model/latest.json')).toBeNull();
  });

  it('has one registry of formats: an unknown format is refused, never written as another', () => {
    expect(() => formatSpec('xml')).toThrow(/unknown output format "xml"/);
  });
});
