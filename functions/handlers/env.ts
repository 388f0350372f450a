/**
 * The handlers' environment, one zod schema per handler, read once per container. The stack sets
 * these variables (`infra/constructs/functions.ts`); none holds a secret. A missing or malformed value
 * fails the invocation with the variable's name instead of becoming `undefined` or `NaN` downstream.
 */
import * as z from 'zod/mini';

const positiveInt = z.pipe(
  z.string().check(z.regex(/^\d+$/, 'a whole number')),
  z.transform((s) => Number(s)),
);

const ExportEnvSchema = z.object({
  BUCKET_NAME: z.string().check(z.minLength(1)),
  /** The Map's maxConcurrency: each Export Lambda gets its share of `api.concurrency`. */
  MAP_CONCURRENCY: z._default(positiveInt.check(z.minimum(1)), 1),
  /** Tests shorten the continuation margin; unset in a deployment. */
  SAFETY_MARGIN_MS: z.optional(positiveInt),
});

const FinalizeEnvSchema = z.object({
  BUCKET_NAME: z.string().check(z.minLength(1)),
  EVENT_BUS_NAME: z._default(z.string().check(z.minLength(1)), 'default'),
  /** The Glue database whose tables are kept equal to the column models; unset = no catalog. */
  GLUE_DATABASE: z.optional(z.string().check(z.minLength(1))),
});

export type ExportEnv = z.infer<typeof ExportEnvSchema>;
export type FinalizeEnv = z.infer<typeof FinalizeEnvSchema>;

function parseEnv<T>(schema: z.ZodMiniType<T>, handler: string, env: NodeJS.ProcessEnv): T {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  throw new Error(`the ${handler} Lambda's environment is not as the stack sets it (${problems}): redeploy`);
}

export const exportEnv = (env: NodeJS.ProcessEnv = process.env): ExportEnv =>
  parseEnv(ExportEnvSchema, 'Export', env);

export const finalizeEnv = (env: NodeJS.ProcessEnv = process.env): FinalizeEnv =>
  parseEnv(FinalizeEnvSchema, 'Finalize', env);
