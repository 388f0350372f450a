/**
 * In the SES sandbox, SES authorizes a send against each recipient's verified identity as well as the
 * sender's: with `-c sesSandbox=true` the Finalize role may send to the config's recipients' identities
 * (each address and its domain) too; without it, only as the one sender identity.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../infra/build-app';
import { recipientIdentities } from '../../infra/stacks/exporter-stack';
import { exampleConfig } from './synth';

const ARN = 'arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/';

/** The SES send statement's resources of the Finalize role, tokens written as in the other infra tests. */
function sesResources(template: Template): string[] {
  const text = JSON.stringify(template.findResources('AWS::IAM::Policy')).replace(
    /\{"Fn::Join":\["",\[(.*?)\]\]\}/g,
    (_, parts: string) =>
      JSON.stringify(
        (JSON.parse(`[${parts}]`) as unknown[])
          .map((p) => (typeof p === 'string' ? p : `<${Object.values(p as Record<string, string>)[0]}>`))
          .join(''),
      ),
  );
  return [...text.matchAll(/"(arn:<AWS::Partition>:ses:[^"]+)"/g)].map((m) => m[1] ?? '');
}

let sandbox: string[];
let production: string[];
let recipients: string[];

beforeAll(async () => {
  const config = await exampleConfig();
  recipients = recipientIdentities(config);
  const synth = (context: Record<string, string>) => {
    const { stack } = buildApp({
      config,
      nag: false,
      appProps: { outdir: mkdtempSync(join(tmpdir(), 'ses-')), context },
    });
    return sesResources(Template.fromStack(stack));
  };
  sandbox = synth({ sesSandbox: 'true' });
  production = synth({});
}, 300_000);

describe('SES grants', () => {
  it('lists each recipient address and its domain once', () => {
    expect(recipients.length).toBeGreaterThan(0);
    for (const r of recipients) expect(recipients.filter((x) => x === r)).toHaveLength(1);
    expect(recipients.some((r) => r.includes('@'))).toBe(true);
    expect(recipients.some((r) => !r.includes('@'))).toBe(true);
  });

  it('in the sandbox, the Finalize role may send to every recipient identity too', () => {
    expect(sandbox).toEqual([`${ARN}reports@example.com`, ...recipients.map((r) => `${ARN}${r}`)]);
  });

  it('with production access, only as the sender identity', () => {
    expect(production).toEqual([`${ARN}reports@example.com`]);
  });
});
