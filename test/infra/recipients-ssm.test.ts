/**
 * Recipient lists named `ssm:/path` in the config: the Finalize role may read exactly those parameters
 * (ssm:GetParameter on their ARNs, nothing else of SSM), and no other role may read them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleConfig, resourcesOf, type Synthesized, synthExample } from './synth';

let s: Synthesized;

beforeAll(async () => {
  const config = await exampleConfig();
  const [weekly, monthly, ...rest] = config.schedules;
  if (!weekly || !monthly || !config.email) throw new Error('the example config changed shape');
  s = await synthExample({
    ...config,
    email: { ...config.email, operators: ['ssm:/report-exporter/operators'] },
    schedules: [
      { ...weekly, recipients: ['ssm:/report-exporter/weekly/recipients'] },
      { ...monthly, recipients: ['ceo@example.com', 'ssm:/report-exporter/monthly/recipients'] },
      ...rest,
    ],
  });
}, 120_000);

/** The policy statements attached to roles whose logical id starts with `prefix`, as JSON text. */
function statementsOf(prefix: string): { Action: unknown; Resource: unknown }[] {
  return Object.values(resourcesOf(s.template, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(prefix))
    .flatMap(
      (p) =>
        (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
    );
}

describe('SSM recipient lists', () => {
  it('Finalize may read exactly the named parameters, with ssm:GetParameter only', () => {
    const ssm = statementsOf('FunctionsFinalizeRole').filter((st) =>
      JSON.stringify(st.Action).includes('ssm:'),
    );
    expect(ssm).toHaveLength(1);
    expect(ssm[0]?.Action).toBe('ssm:GetParameter');
    const resources = JSON.stringify(ssm[0]?.Resource);
    for (const name of [
      'report-exporter/operators',
      'report-exporter/weekly/recipients',
      'report-exporter/monthly/recipients',
    ]) {
      expect(resources).toContain(`:parameter/${name}"`);
    }
    expect(ssm[0]?.Resource).toHaveLength(3);
    expect(resources).not.toContain('*');
  });

  it('no other role can read SSM', () => {
    for (const role of ['FunctionsPlanRole', 'FunctionsExportRole']) {
      expect(JSON.stringify(statementsOf(role))).not.toContain('ssm:');
    }
  });
});
