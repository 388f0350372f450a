import { describe, expect, it } from 'vitest';
import { createRedactor } from '#core/api/redact';
import { jwtPieces, secretForms } from '#core/api/secret-forms';
import { makeJwt } from './helpers';

const SECRET = 's3cr"et\\with/quote+and space&more';
const JWT = makeJwt({ sub: 'client-7', exp: 2_000_000_000, scope: 'reports' });

/** Every encoding of `s` a hostile echo might use, built independently of the redactor's own list. */
function encodingsOf(s: string): Record<string, string> {
  const json = JSON.stringify(s).slice(1, -1);
  return {
    raw: s,
    json,
    jsonTwice: JSON.stringify(json).slice(1, -1),
    url: encodeURIComponent(s),
    form: new URLSearchParams({ x: s }).toString().slice(2),
    base64: Buffer.from(s).toString('base64'),
    base64url: Buffer.from(s).toString('base64url'),
  };
}

describe('redactor', () => {
  it('masks the client secret in every encoding, also inside longer text', () => {
    const r = createRedactor();
    r.add(SECRET, true);
    for (const [name, form] of Object.entries(encodingsOf(SECRET))) {
      const out = r.text(`before ${form} after`);
      expect(out, name).toBe('before [redacted] after');
    }
  });

  it('masks the secret base64-encoded inside an encoded request body, at every alignment', () => {
    const r = createRedactor();
    r.add(SECRET, true);
    for (const lead of ['', 'x', 'xy', 'xyz']) {
      const body = JSON.stringify({ clientId: `${lead}id`, clientSecret: SECRET });
      for (const enc of ['base64', 'base64url'] as const) {
        const echoed = Buffer.from(body).toString(enc);
        const out = r.text(echoed);
        expect(out, `${enc} lead=${lead.length}`).toContain('[redacted]');
        // what is left cannot be decoded back to the secret
        const rest = out.split('[redacted]');
        for (const piece of rest)
          expect(Buffer.from(piece, enc).toString()).not.toContain(SECRET.slice(0, 6));
      }
    }
  });

  it('masks the JWT and each of its segments in every encoding', () => {
    const r = createRedactor();
    r.add(JWT);
    const [header, payload, signature] = JWT.split('.') as [string, string, string];
    for (const piece of [JWT, header, payload, signature]) {
      for (const [name, form] of Object.entries(encodingsOf(piece))) {
        expect(r.text(`<${form}>`), `${name} of ${piece.slice(0, 8)}`).toBe('<[redacted]>');
      }
    }
    for (const segment of [header, payload, signature]) {
      const std = Buffer.from(segment, 'base64url').toString('base64');
      expect(r.text(`<${std}>`), `std base64 of ${segment.slice(0, 8)}`).toBe('<[redacted]>');
    }
  });

  it('masks keys and values of a structure and keeps "__proto__" a plain key', () => {
    const r = createRedactor();
    r.add(SECRET, true);
    const value = JSON.parse(
      `{"__proto__": {"polluted": true}, "${encodeURIComponent(SECRET)}": ["${encodeURIComponent(SECRET)}"]}`,
    );
    const out = r.value(value) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"[redacted]":["[redacted]"]}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves ordinary text alone', () => {
    const r = createRedactor();
    r.add(SECRET, true);
    r.add(JWT);
    const text = 'GET /v2/posts/performance answered 400 Bad Request: metric "likez" is not valid';
    expect(r.text(text)).toBe(text);
  });

  it('lists no short derived forms that could match ordinary text', () => {
    for (const f of [...secretForms('abcd'), ...jwtPieces(JWT).flatMap(secretForms)]) {
      expect(f === 'abcd' || f.length >= 8).toBe(true);
    }
  });

  it('stays fast with many remembered tokens', () => {
    const r = createRedactor();
    r.add(SECRET, true);
    for (let i = 0; i < 32; i++) r.add(makeJwt({ sub: `c${i}`, exp: 2_000_000_000 + i }));
    const cells = Array.from({ length: 800 }, (_, i) => `caption number ${i} with some words in it`);
    const started = performance.now();
    const out = r.value(cells);
    expect(out).toEqual(cells);
    // generous: a budget for a shared, loaded machine, not a speed goal
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
