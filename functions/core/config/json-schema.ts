/** The JSON Schema for editors, generated from the one zod schema (never written by hand). */
import { z } from 'zod';
import { ConfigSchema } from './schema';

export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any', target: 'draft-7' });
  return {
    ...schema,
    $id: 'https://report-exporter.dev/schema/reports.schema.json',
    title: 'report-exporter configuration (reports.yaml)',
  };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
