import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchema, configJsonSchemaText } from '#core/config/json-schema';
import { ROUTES } from '#core/config/routes';

interface Node {
  type?: string;
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
  enum?: unknown[];
}

/** The structural part of JSON Schema the editor uses: types, known keys, required keys, enums. */
function structuralProblems(value: unknown, node: Node, path: string): string[] {
  if (node.enum && !node.enum.includes(value)) return [`${path}: not one of ${node.enum.join(', ')}`];
  if (node.type === 'array') {
    if (!Array.isArray(value)) return [`${path}: expected an array`];
    return value.flatMap((item, i) =>
      node.items ? structuralProblems(item, node.items, `${path}[${i}]`) : [],
    );
  }
  if (node.type === 'object' && node.properties) {
    if (typeof value !== 'object' || value === null) return [`${path}: expected an object`];
    const record = value as Record<string, unknown>;
    const out = (node.required ?? []).filter((k) => !(k in record)).map((k) => `${path}.${k}: missing`);
    for (const [key, child] of Object.entries(record)) {
      const sub = node.properties[key];
      if (sub) out.push(...structuralProblems(child, sub, `${path}.${key}`));
      else if (node.additionalProperties === false) out.push(`${path}.${key}: unknown key`);
    }
    return out;
  }
  if (node.type === 'string' && typeof value !== 'string') return [`${path}: expected a string`];
  if ((node.type === 'integer' || node.type === 'number') && typeof value !== 'number') {
    return [`${path}: expected a number`];
  }
  return [];
}

describe('the shipped JSON Schema', () => {
  it('equals what the zod schema generates now (run `npm run schema` after changing it)', () => {
    expect(readFileSync('schema/reports.schema.json', 'utf8')).toBe(configJsonSchemaText());
  });

  it('accepts the example reports.yaml structurally', () => {
    const example: unknown = parse(readFileSync('reports.yaml', 'utf8'));
    expect(structuralProblems(example, configJsonSchema() as Node, '$')).toEqual([]);
  });

  it('rejects unknown keys, missing keys and unknown routes structurally', () => {
    const example = parse(readFileSync('reports.yaml', 'utf8')) as {
      api: Record<string, unknown>;
      schedules: { reports: Record<string, unknown>[] }[];
      typo?: number;
    };
    delete example.api.credentialsSecret;
    example.typo = 1;
    const report = example.schedules[0]?.reports[0];
    if (report) report.route = 'campaign/performance';
    expect(structuralProblems(example, configJsonSchema() as Node, '$')).toEqual([
      '$.api.credentialsSecret: missing',
      `$.schedules[0].reports[0].route: not one of ${ROUTES.join(', ')}`,
      '$.typo: unknown key',
    ]);
  });

  it('documents defaults for editors', () => {
    const api = (configJsonSchema() as Node).properties?.api?.properties;
    expect(api?.pageSize).toMatchObject({ default: 500 });
    expect(api?.arrayFormat).toMatchObject({ default: 'repeat', enum: ['repeat', 'comma', 'brackets'] });
  });
});
