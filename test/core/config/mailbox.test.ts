import { describe, expect, it } from 'vitest';
import { bareAddress } from '#core/config/mailbox';

describe('bareAddress', () => {
  it('takes the address out of a display-name mailbox and keeps a bare one', () => {
    expect(bareAddress('Berichte Köln <reports@example.com>')).toBe('reports@example.com');
    expect(bareAddress(' reports@example.com ')).toBe('reports@example.com');
  });
});
