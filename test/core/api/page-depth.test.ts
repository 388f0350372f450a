/**
 * parsePage refuses a row nested deeper than MAX_ROW_DEPTH (flattening recurses) and accepts every row
 * up to it, whatever mix of objects and arrays makes the depth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ROW_DEPTH, parsePage } from '#core/api/page';

/** A row whose deepest path has `depth` levels (the row itself is level 1), made of `kinds`. */
function rowOf(depth: number, kinds: readonly boolean[]): string {
  // the row's "nest" value is level 2: depth - 1 containers around a scalar
  let inner = '1';
  for (let level = depth; level > 1; level--) {
    inner = kinds[level % kinds.length] ? `[0,${inner}]` : `{"a":null,"k":${inner}}`;
  }
  return `{"postId":"p","flat":2,"nest":${inner}}`;
}

describe('row depth', () => {
  it('accepts rows nested up to MAX_ROW_DEPTH levels and refuses deeper ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ROW_DEPTH + 5 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        (depth, kinds) => {
          const text = `{"data":[{"postId":"q"},${rowOf(depth, kinds)}],"nextCursor":null}`;
          const parse = () => parsePage({ text }, 'GET /v2/x');
          if (depth <= MAX_ROW_DEPTH) expect(parse().rows).toHaveLength(2);
          else
            expect(parse).toThrow(
              `row 1 of a page nests objects or arrays more than ${MAX_ROW_DEPTH} levels deep`,
            );
        },
      ),
    );
  });
});
