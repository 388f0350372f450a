/**
 * The small field schemas that several sections of `reports.yaml` share (ids, titles, mail
 * addresses, recipient lists, labels, currency) and the helpers their cross-field checks use.
 */
import { z } from 'zod';

const ID = /^[a-z0-9-]{1,40}$/;
/** Cross-field checks run even when a field failed, so one `validate` lists every problem. */
export const ALWAYS = { when: () => true };

export const noCrLf = (s: string) => !/[\r\n]/.test(s);

export const idSchema = (what: string) =>
  z.string().regex(ID, { error: `${what} must be 1–40 characters of a-z, 0-9 and "-"` });

/** A bare address. Line breaks get their own message (and are never echoed: header injection). */
export const emailAddress = z
  .string()
  .superRefine((value, ctx) => {
    if (!noCrLf(value)) {
      ctx.addIssue({ code: 'custom', message: 'email addresses may not contain line breaks' });
    } else if (!z.email().safeParse(value).success) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address` });
    }
  })
  .meta({ format: 'email' }); // the JSON Schema keeps the editor hint

/** `Name <addr@example.com>` or a bare address. */
export const mailbox = z.string().superRefine((value, ctx) => {
  if (!noCrLf(value)) {
    ctx.addIssue({ code: 'custom', message: 'the sender may not contain line breaks' });
    return;
  }
  const m = /^\s*(?:(.*?)\s*<([^<>]+)>|([^<>\s]+))\s*$/.exec(value);
  const address = m?.[2] ?? m?.[3];
  if (!address || !z.email().safeParse(address).success) {
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not a valid sender; write "Reports <reports@example.com>" or "reports@example.com"`,
    });
  }
});

/** `ssm:/report-exporter/weekly/recipients`: an SSM parameter (String or StringList) read at send time. */
export const SSM_REF = /^ssm:(\/[A-Za-z0-9_.\-/]{1,1000})$/;

/** One entry of `recipients` / `operators`: an address, or an SSM parameter holding comma-separated ones. */
const recipientEntry = z
  .string()
  .superRefine((value, ctx) => {
    if (!noCrLf(value)) {
      ctx.addIssue({ code: 'custom', message: 'email addresses may not contain line breaks' });
    } else if (value.startsWith('ssm:')) {
      if (!SSM_REF.test(value) || value.endsWith('/')) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" is not an SSM parameter reference; write ssm:/path/to/parameter (letters, digits, _ . - /)`,
        });
      }
    } else if (!z.email().safeParse(value).success) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address` });
    }
  })
  .describe('an email address, or ssm:/path naming an SSM parameter with comma-separated addresses');

/** A list of entries, or one `ssm:/path` on its own (read at send time, so no redeploy to change it). */
export const recipientList = z
  .union(
    [
      z.array(recipientEntry),
      z
        .string()
        .regex(SSM_REF)
        .transform((ref) => [ref]),
    ],
    { error: 'write a list of addresses (and ssm:/path entries), or one ssm:/path' },
  )
  .default([]);

/** Metric → the words people use for it (`paidImpressions: Paid reach`); keys are API or column names. */
export const labelsSchema = z
  .record(
    z.string().min(1),
    z.string().min(1).max(60).refine(noCrLf, { error: 'a label may not contain line breaks' }),
  )
  .default({});

/** ISO 4217 code for money metrics (EUR, USD …), formatted with Intl. */
export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { error: 'currency must be an ISO 4217 code such as EUR or USD' })
  .refine((c) => Intl.supportedValuesOf('currency').includes(c), {
    error: (iss) => `unknown currency "${String(iss.input)}"; use an ISO 4217 code such as EUR or USD`,
  });

/** A human title: one line, short enough for a subject. */
export const titleSchema = z
  .string()
  .min(1)
  .max(120)
  .refine(noCrLf, { error: 'a title may not contain line breaks' });

export function duplicates(ids: readonly unknown[]): number[] {
  const seen = new Set<unknown>();
  const out: number[] = [];
  ids.forEach((id, i) => {
    if (typeof id === 'string' && seen.has(id)) out.push(i);
    seen.add(id);
  });
  return out;
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
