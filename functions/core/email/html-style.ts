/**
 * Inline styles of the HTML part. Mail clients strip `<style>` blocks and ignore media queries, so the
 * layout is fluid without them: one column up to 640 px, boxes that wrap (inline-block), text that may
 * break anywhere rather than push the page wider than a phone.
 */
export const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
export const MUTED = 'color:#6b7280';
/** Long words (ids, hostile names, paths) wrap instead of widening the page. */
export const WRAP = 'overflow-wrap:anywhere;word-break:break-word';
export const TABLE = 'role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"';
export const SECTION_PAD = 'padding:14px 16px';
export const UP = '#15803d';
export const DOWN = '#b91c1c';
export const BAR = '#4f46e5';

export const STATUS = {
  succeeded: { fg: '#166534', bg: '#dcfce7', border: '#86efac', label: 'Up to date' },
  /** Operators only: every report updated, but some carry warnings (partial results, altered values). */
  warned: { fg: '#92400e', bg: '#fef3c7', border: '#fcd34d', label: 'Up to date, with warnings' },
  partial: { fg: '#92400e', bg: '#fef3c7', border: '#fcd34d', label: 'Partly updated' },
  failed: { fg: '#991b1b', bg: '#fee2e2', border: '#fca5a5', label: 'Not updated' },
} as const;

export const arrowColor = (a: string): string => (a === '▲' ? UP : a === '▼' ? DOWN : '#6b7280');
