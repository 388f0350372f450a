/**
 * Valid Unicode text (docs/export.md "Text"): a lone surrogate (a `\ud800` escape without its pair)
 * cannot be written as UTF-8, so every format holds U+FFFD in its place.
 */

// ES2024 string methods (Node 20+), not in this project's ES2023 lib typings
const isWellFormed = (String.prototype as unknown as { isWellFormed: (this: string) => boolean })
  .isWellFormed;
const toWellFormed = (String.prototype as unknown as { toWellFormed: (this: string) => string }).toWellFormed;

/** Whether the text is valid Unicode (no lone surrogate), so every format can hold it as it is. */
export function wellFormed(text: string): boolean {
  return isWellFormed.call(text);
}

/** The text with U+FFFD for each lone surrogate: what UTF-8 (Parquet, CSV, JSON Lines) can hold. */
export function validText(text: string): string {
  return isWellFormed.call(text) ? text : toWellFormed.call(text);
}
