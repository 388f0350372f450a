/**
 * Least privilege on the emulator (not a test file): an IAM user per deployed Lambda role whose inline
 * policies are exactly that role's (read back from the deployment), IAM enforcement switched on, and
 * one Lambda's share of a run (role-run.ts) executed in its own process with that user's keys.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  CreateAccessKeyCommand,
  CreateUserCommand,
  GetRolePolicyCommand,
  type IAMClient,
  ListRolePoliciesCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import type { Config } from '#core/config/schema';
import type { Emulator } from './emulator';

export interface Keys {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}
export interface PolicyDocument {
  readonly Version: string;
  readonly Statement: readonly Record<string, unknown>[];
}

/** A role's inline policies as deployed, by policy name. */
export async function rolePolicies(
  iam: IAMClient,
  roleName: string,
): Promise<Record<string, PolicyDocument>> {
  const { PolicyNames = [] } = await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }));
  const out: Record<string, PolicyDocument> = {};
  for (const name of PolicyNames) {
    const p = await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName: name }));
    out[name] = JSON.parse(decodeURIComponent(p.PolicyDocument ?? '{}')) as PolicyDocument;
  }
  return out;
}

/** Replaces the user's inline policies' documents (same names), e.g. with one statement removed. */
export async function putUserPolicies(
  iam: IAMClient,
  user: string,
  policies: Record<string, PolicyDocument>,
): Promise<void> {
  for (const [name, doc] of Object.entries(policies)) {
    await iam.send(
      new PutUserPolicyCommand({ UserName: user, PolicyName: name, PolicyDocument: JSON.stringify(doc) }),
    );
  }
}

export async function createUser(
  iam: IAMClient,
  user: string,
  policies: Record<string, PolicyDocument>,
): Promise<Keys> {
  await iam.send(new CreateUserCommand({ UserName: user }));
  await putUserPolicies(iam, user, policies);
  const { AccessKey } = await iam.send(new CreateAccessKeyCommand({ UserName: user }));
  return { accessKeyId: String(AccessKey?.AccessKeyId), secretAccessKey: String(AccessKey?.SecretAccessKey) };
}

/** From the next request on, every call needs keys whose policies allow it. */
export async function enforceIam(moto: Emulator): Promise<void> {
  const res = await fetch(`${moto.endpoint}/moto-api/reset-auth`, { method: 'POST', body: '0' });
  if (!res.ok) throw new Error(`reset-auth: ${res.status}`);
}

export interface PhaseResult {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs one phase of role-run.ts with the given keys (and the Lambda's environment). */
export function runPhase(
  moto: Emulator,
  keys: Keys,
  config: Config,
  env: Record<string, string>,
  args: string[],
): Promise<PhaseResult> {
  const script = join(import.meta.dirname, 'role-run.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: {
      ...moto.env(keys),
      AWS_ENDPOINT_URL_S3: moto.endpoint,
      LP_CONFIG: JSON.stringify(config),
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_DEV: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

/** The statements a negative control removes one at a time: all but the log-group grant, which
 * only the Lambda runtime itself uses (it is never called by the code under test). */
export function removableStatements(
  policies: Record<string, PolicyDocument>,
): { policy: string; index: number; actions: string }[] {
  return Object.entries(policies).flatMap(([policy, doc]) =>
    doc.Statement.map((s, index) => ({
      policy,
      index,
      actions: ([] as unknown[]).concat(s.Action).join(','),
    })).filter((s) => !s.actions.split(',').every((a) => /^(logs|xray):/.test(a))),
  );
}

/** The policies with one statement removed. */
export function without(
  policies: Record<string, PolicyDocument>,
  policy: string,
  index: number,
): Record<string, PolicyDocument> {
  const doc = policies[policy];
  if (!doc) throw new Error(`no policy ${policy}`);
  return { ...policies, [policy]: { ...doc, Statement: doc.Statement.filter((_, i) => i !== index) } };
}
