/** Draining an API client's pages in tests (not a test file). */
import type { ApiPage } from '#core/api/types';
import { type ExporterError, isExporterError } from '#core/errors';

/** Every page, in order. */
export async function collect(pages: AsyncIterable<ApiPage>): Promise<ApiPage[]> {
  const out: ApiPage[] = [];
  for await (const p of pages) out.push(p);
  return out;
}

/** The ExporterError the pages end with; fails the test when they end without one. */
export async function failure(pages: AsyncIterable<ApiPage>): Promise<ExporterError> {
  try {
    await collect(pages);
  } catch (err: unknown) {
    if (isExporterError(err)) return err;
    throw err;
  }
  throw new Error('expected the export to fail');
}
