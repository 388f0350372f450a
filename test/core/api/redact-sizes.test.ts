/**
 * The redactor against every form of secrets and JWTs of any size (1 byte to 1 MB) and shape
 * (surrounding whitespace, CR LF, quotes, non-ASCII): properties over generated secrets, and the sizes
 * that broke the RegExp-based redactor (a JWT over ~17 KB made V8 refuse the pattern, and the error's
 * text was the pattern). Set REDACT_RUNS for a longer search.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, maskForms, REDACTION_FAILED } from '#core/api/redact';

const RUNS = Number(process.env.REDACT_RUNS ?? 150);
const MASK = '[redacted]';

/** Every spelling of `s` a hostile echo might use, built independently of the redactor's own list. */
function encodingsOf(s: string): Record<string, string> {
  const json = JSON.stringify(s).slice(1, -1);
  return {
    raw: s,
    json,
    url: encodeURIComponent(s),
    form: new URLSearchParams({ x: s }).toString().slice(2),
    base64: Buffer.from(s).toString('base64'),
    base64url: Buffer.from(s).toString('base64url'),
  };
}

/** The variants a server may echo: as configured, trimmed, CR/LF removed. */
function variantsOf(s: string): Record<string, string> {
  return { given: s, trimmed: s.trim(), crlfStripped: s.replace(/[\r\n]/g, '') };
}

/** What is left of `out` once every mask is cut out (so a secret such as "dact" is not found in "[redacted]"). */
const unmasked = (out: string) => out.split(MASK).join('\u0000');

/** A JWT whose payload segment is `bytes` long (base64url of a JSON claim set). */
function jwtOfSize(bytes: number): string {
  const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const room = Math.max(0, Math.floor((bytes * 3) / 4) - 12);
  const payload = Buffer.from(JSON.stringify({ sub: 'c', pad: 'p'.repeat(room) })).toString('base64url');
  return `${header}.${payload.slice(0, Math.max(1, bytes))}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;
}

const SECRET_CHARS = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=&?%"\\<>\' é€😀',
);
/** A client secret as an operator's .env file may hold it: surrounding spaces, tabs, CR LF. */
const secretArb = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '\n'),
    fc.string({ unit: SECRET_CHARS, minLength: 8, maxLength: 48 }),
    fc.constantFrom('', '\r\n', '\n', ' ', '\r\n '),
  )
  .map(([lead, core, tail]) => `${lead}${core}${tail}`);
/** Text around an echo: characters that are in no base64 or escape alphabet, so a form is bounded. */
const aroundArb = fc.string({ unit: fc.constantFrom(' ', ':', '(', ')', '[', ']', ','), maxLength: 6 });

describe('redactor: every form of every secret, any size', () => {
  test.prop([secretArb, aroundArb, aroundArb], { numRuns: RUNS, seed: 23 })(
    'masks the client secret as given, trimmed or CR/LF-stripped, in every encoding',
    (secret, before, after) => {
      const r = createRedactor();
      r.add(secret, true);
      for (const [variant, value] of Object.entries(variantsOf(secret))) {
        for (const [encoding, form] of Object.entries(encodingsOf(value))) {
          const out = r.text(`${before}${form}${after}`);
          expect(unmasked(out), `${variant} ${encoding}`).not.toContain(form);
        }
      }
    },
  );

  test.prop([fc.integer({ min: 1, max: 4096 }), aroundArb], { numRuns: Math.ceil(RUNS / 3), seed: 23 })(
    'masks a JWT of any size whole and segment by segment, in every encoding',
    (bytes, around) => {
      const jwt = jwtOfSize(bytes);
      const r = createRedactor();
      r.add(jwt);
      for (const piece of [jwt, ...jwt.split('.')]) {
        for (const [encoding, form] of Object.entries(encodingsOf(piece))) {
          if (form.length < 8) continue; // shorter derived forms are not masked (they match prose)
          expect(unmasked(r.text(`${around}${form}${around}`)), encoding).not.toContain(form);
        }
      }
    },
  );

  test.prop(
    [fc.string({ maxLength: 40 }), fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 5 })],
    { numRuns: RUNS, seed: 23 },
  )('maskForms leaves no occurrence of any form, overlapping ones included', (text, forms) => {
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    const out = maskForms(text, sorted);
    const probe = out.split(MASK).join('\u0000');
    for (const f of forms) if (!f.includes('\u0000')) expect(probe).not.toContain(f);
  });

  for (const bytes of [1, 3, 4, 17, 1024, 17 * 1024, 20 * 1024, 1024 * 1024]) {
    it(`masks a ${bytes}-byte secret and a ${bytes}-byte JWT, and never fails on them`, () => {
      const secret = `${'s'.repeat(Math.max(0, bytes - 2))}+/`.slice(-bytes);
      const jwt = jwtOfSize(bytes);
      const r = createRedactor();
      r.add(`${secret}\r\n`, true);
      r.add(jwt);
      const echoed = [
        `invalid client secret "${secret}"`,
        `token ${jwt}`,
        `header ${Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('base64')}`,
        `payload (${jwt.split('.')[1]})`,
        `the request body was ${Buffer.from(JSON.stringify({ clientSecret: secret })).toString('base64')}`,
      ].join('\n');
      const out = r.text(echoed);
      expect(out).not.toBe(REDACTION_FAILED);
      if (bytes >= 4) expect(unmasked(out)).not.toContain(secret);
      for (const piece of [jwt, ...jwt.split('.')]) if (piece.length >= 8) expect(out).not.toContain(piece);
      // the redactor keeps the message around the secrets
      expect(out).toContain('invalid client secret "');
    });
  }

  it('returns a fixed text, never its input, when masking fails', () => {
    const r = createRedactor();
    r.add('a-client-secret', true);
    const hostile = {
      toString() {
        throw new Error('a-client-secret');
      },
    };
    // a value whose property getter throws: the copy fails, and says so without the value
    const trap = Object.defineProperty({}, 'k', {
      enumerable: true,
      get() {
        throw new Error('a-client-secret');
      },
    });
    expect(r.value(trap)).toBe(REDACTION_FAILED);
    expect(r.text(hostile as unknown as string)).toBe(REDACTION_FAILED);
  });
});

describe('redactor memory', () => {
  it('keeps at least the latest megabyte-long token, and forgets older ones past 4 Mi characters', () => {
    const r = createRedactor();
    const [header, payload, signature] = jwtOfSize(1536 * 1024).split('.') as [string, string, string];
    // three 1.5 MB tokens whose payloads differ in their last character
    const tokens = ['A', 'B', 'C'].map((c) => `${header}.${payload.slice(0, -1)}${c}.${signature}`);
    for (const t of tokens) r.add(t);
    const payloadOf = (t: string | undefined) => t?.split('.')[1] ?? '';
    expect(r.text(`<${payloadOf(tokens[2])}>`)).toBe(`<${MASK}>`);
    expect(r.text(`<${payloadOf(tokens[1])}>`)).toBe(`<${MASK}>`);
    // the oldest is no longer known (4.5 Mi characters of tokens passed the bound)
    expect(r.text(`<${payloadOf(tokens[0])}>`)).toBe(`<${payloadOf(tokens[0])}>`);
  });
});
