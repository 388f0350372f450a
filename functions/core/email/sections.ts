/**
 * Extra sections of the summary, after the reports and before the footer (e.g. a "Revised" section
 * for windows that were exported again). Each section lives in its own file and is listed in
 * `SECTIONS`; returning null leaves it out of that email. Every value must go through `escapeHtml`.
 */
import { revisedSection } from './revised';
import type { SectionContext, SummarySection } from './section';

/** The sections in display order. Add a section here (one line) and in its own file. */
export const SECTIONS: readonly SummarySection[] = [revisedSection];

export interface RenderedSections {
  readonly html: string;
  readonly text: readonly string[];
}

export function renderSections(ctx: SectionContext, sections = SECTIONS): RenderedSections {
  const html: string[] = [];
  const text: string[] = [];
  for (const s of sections) {
    const h = s.html(ctx);
    if (h) html.push(h);
    const t = s.text(ctx);
    if (t && t.length > 0) text.push(...t, '');
  }
  return { html: html.join('\n'), text };
}
