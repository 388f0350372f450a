/**
 * A report's columns as the writers see them: the definitions of its column model (`model.ts`), which
 * owns their order, names and types (docs/export.md "Column model").
 */
export type { ColumnDef } from './model';
