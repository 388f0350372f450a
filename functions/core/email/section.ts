/** What an extra section of the summary is (`sections.ts` lists them) and what it is rendered from. */
import type { Audience, SummaryView } from './model';
import type { SummaryInput } from './types';

export interface SectionContext {
  readonly view: SummaryView;
  readonly input: SummaryInput;
  readonly audience: Audience;
}

export interface SummarySection {
  readonly id: string;
  /** A `<tr><td>…</td></tr>` row of the email's main table, or null. */
  html(ctx: SectionContext): string | null;
  /** Lines of the text part, or null. */
  text(ctx: SectionContext): readonly string[] | null;
}
