import { describe, expect, it } from 'vitest';
import {
  attachmentName,
  base64Size,
  MESSAGE_BUDGET_BYTES,
  planAttachments,
  SES_MESSAGE_LIMIT_BYTES,
} from '#core/email/attachments';
import { CSV_KEY, creatorsReport, manifest, postsReport } from './fixtures';

const MIB = 1024 * 1024;

function withCsvBytes(bytes: number) {
  return manifest([
    creatorsReport({ files: creatorsReport().files.map((f) => (f.format === 'csv' ? { ...f, bytes } : f)) }),
    postsReport(),
  ]);
}

const reader = (content: Uint8Array | null) => {
  const keys: string[] = [];
  return {
    keys,
    read: async (key: string) => {
      keys.push(key);
      return content;
    },
  };
};

describe('planAttachments', () => {
  it('attaches the CSVs when their total is exactly at the limit', async () => {
    const r = reader(new Uint8Array(MIB));
    const plan = await planAttachments(withCsvBytes(MIB), { maxMiB: 1, bodyBytes: 50_000 }, r.read);
    expect(plan.reason).toBeNull();
    expect(plan.attachments.map((a) => a.filename)).toEqual(['creators-2026-11-22-part-00000.csv']);
    expect(r.keys).toEqual([CSV_KEY]);
  });

  it('attaches nothing one byte above the limit, without reading the files', async () => {
    const r = reader(new Uint8Array(1));
    const plan = await planAttachments(withCsvBytes(MIB + 1), { maxMiB: 1, bodyBytes: 50_000 }, r.read);
    expect(plan.attachments).toEqual([]);
    expect(plan.reason).toMatch(/larger than the 1 MiB attachment limit/);
    expect(r.keys).toEqual([]);
  });

  it('attaches nothing when within attachCsvUpToMiB but the encoded message would near SES 40 MB', async () => {
    const r = reader(new Uint8Array(1));
    const plan = await planAttachments(withCsvBytes(24 * MIB), { maxMiB: 25, bodyBytes: 50_000 }, r.read);
    expect(base64Size(24 * MIB)).toBeGreaterThan(MESSAGE_BUDGET_BYTES);
    expect(MESSAGE_BUDGET_BYTES).toBeLessThan(SES_MESSAGE_LIMIT_BYTES);
    expect(plan.attachments).toEqual([]);
    expect(plan.reason).toMatch(/SES accepts at most 40 MB/);
  });

  it('says attachments are off when attachCsvUpToMiB is 0', async () => {
    const plan = await planAttachments(withCsvBytes(10), { maxMiB: 0, bodyBytes: 0 }, reader(null).read);
    expect(plan.attachments).toEqual([]);
    expect(plan.reason).toMatch(/turned off/);
  });

  it('attaches nothing when a CSV can no longer be read, and says so', async () => {
    const plan = await planAttachments(withCsvBytes(10), { maxMiB: 1, bodyBytes: 0 }, reader(null).read);
    expect(plan.attachments).toEqual([]);
    expect(plan.reason).toMatch(/could not be read back/);
  });

  it('has nothing to say when the run wrote no CSV (parquet only, or all failed)', async () => {
    const plan = await planAttachments(
      manifest([postsReport()]),
      { maxMiB: 5, bodyBytes: 0 },
      reader(null).read,
    );
    expect(plan).toEqual({ attachments: [], reason: null });
  });
});

describe('attachmentName', () => {
  it('names the file after report, partition date and part', () => {
    expect(attachmentName('creators', CSV_KEY)).toBe('creators-2026-11-22-part-00000.csv');
  });
});
