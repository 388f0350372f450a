// Regenerates schema/reports.schema.json from the zod schema: `npm run schema`.
import { writeFileSync } from 'node:fs';
import { configJsonSchemaText } from '#core/config/json-schema';

writeFileSync(new URL('./reports.schema.json', import.meta.url), configJsonSchemaText());
