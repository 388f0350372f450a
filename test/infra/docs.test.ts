/**
 * The docs are the template: every count the README and docs/deploy.md give for the example config
 * (resources by type, alarms, Lambdas, schedules, Glue tables, bundle sizes) and every row of the
 * least-privilege table is compared with the synthesized template, so changing one without the other
 * fails here, naming the line to change.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { countedClaims, leastPrivilegeRows, resourceTable } from '../support/doc-tables';
import { resourcesOf, type Synthesized, synthExample } from './synth';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DEPLOY = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');

let s: Synthesized;
beforeAll(async () => {
  s = await synthExample();
}, 240_000);

const count = (type: string) => Object.keys(resourcesOf(s.template, type)).length;

/** Types that are CDK's own bookkeeping, not resources a reader deploys. */
const BOOKKEEPING = /^(AWS::CDK::Metadata|Custom::)/;

describe('docs/deploy.md resource table', () => {
  it('gives the template’s count for every resource type, and lists every type the template has', () => {
    const rows = resourceTable(DEPLOY);
    expect(rows.length).toBeGreaterThan(10);
    const wrong = rows
      .filter((r) => count(r.type) !== r.count)
      .map((r) => `${r.type}: the docs say ${r.count}, the template has ${count(r.type)}`);
    expect(wrong.join('\n')).toBe('');
    const listed = new Set(rows.map((r) => r.type));
    const types = new Set(
      Object.values(s.template.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type),
    );
    const missing = [...types].filter((t) => !BOOKKEEPING.test(t) && !listed.has(t));
    expect(missing.join('\n'), 'resource types the table does not list').toBe('');
  });
});

describe('counts in the README and docs/deploy.md', () => {
  // docs/deploy.md's counts are its resource table (above) and the cost table's alarms; its prose
  // also reasons about other configs ("500 schedules … are 96 Scheduler schedules")
  const claims = [
    ...countedClaims(README, 'README.md'),
    ...countedClaims(DEPLOY, 'docs/deploy.md').filter((c) => c.text.startsWith('CloudWatch alarms |')),
  ];

  it('finds the counted claims (alarms, Lambdas, schedules, Glue tables)', () => {
    expect(claims.map((c) => c.type)).toEqual(
      expect.arrayContaining(['AWS::CloudWatch::Alarm', 'AWS::Lambda::Function', 'AWS::Scheduler::Schedule']),
    );
  });

  it('each equals the template', () => {
    const wrong = claims
      .filter((c) => count(c.type) !== c.count)
      .map((c) => `${c.where}: "${c.text}" — the template has ${count(c.type)}`);
    expect(wrong.join('\n')).toBe('');
  });
});

/** The role behind each name of the least-privilege table (logical id prefix). */
const ROLES: Record<string, RegExp> = {
  Plan: /^FunctionsPlanRole/,
  Export: /^FunctionsExportRole/,
  Finalize: /^FunctionsFinalizeRole/,
  'Workflow state machine': /^WorkflowStateMachineRole/,
  'Dispatcher state machine': /^SchedulesDispatcherStateMachineRole/,
  Scheduler: /^SchedulerRoleForTarget/,
};

function actionsOf(role: RegExp): Set<string> {
  const actions = new Set<string>();
  for (const policy of Object.values(resourcesOf(s.template, 'AWS::IAM::Policy'))) {
    const roles = (policy.Properties.Roles as { Ref?: string }[]).map((r) => r.Ref ?? '');
    if (!roles.some((r) => role.test(r))) continue;
    const doc = policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] };
    for (const st of doc.Statement) for (const a of [st.Action].flat()) actions.add(a);
  }
  return actions;
}

describe('docs/deploy.md least-privilege table', () => {
  const rows = leastPrivilegeRows(DEPLOY);

  it('has a row group for each role, and the template has no role the table leaves out', () => {
    expect([...new Set(rows.map((r) => r.role))].sort()).toEqual(Object.keys(ROLES).sort());
    const unnamed = Object.keys(resourcesOf(s.template, 'AWS::IAM::Role')).filter(
      (id) => !Object.values(ROLES).some((re) => re.test(id)),
    );
    expect(unnamed.join(', '), 'roles missing from the least-privilege table').toBe('');
  });

  it.each(Object.keys(ROLES))('%s: the actions the docs list are the actions the template grants', (role) => {
    const documented = rows.filter((r) => r.role === role);
    const granted = actionsOf(ROLES[role] as RegExp);
    const listed = new Set(documented.flatMap((r) => r.actions));
    // a row the example config does not need ("only when …") may be absent from its template
    const required = new Set(documented.filter((r) => !r.conditional).flatMap((r) => r.actions));
    expect(
      [...granted]
        .filter((a) => !listed.has(a))
        .sort()
        .join(', '),
      'granted but not in the table',
    ).toBe('');
    expect(
      [...required]
        .filter((a) => !granted.has(a))
        .sort()
        .join(', '),
      'in the table but not granted',
    ).toBe('');
  });
});

describe('bundle sizes in docs/deploy.md', () => {
  it('are within 15 % of the bundles this synth wrote', () => {
    const claimed = /Bundle sizes[^:]*: Plan ([\d,]+) KiB, Export ([\d,]+) KiB, Finalize ([\d,]+) KiB/.exec(
      DEPLOY,
    );
    expect(
      claimed,
      'docs/deploy.md: "Bundle sizes …: Plan N KiB, Export N KiB, Finalize N KiB"',
    ).not.toBeNull();
    const [, plan, exp, fin] = claimed ?? [];
    const wrong = Object.entries({ Plan: plan, Export: exp, Finalize: fin }).flatMap(([name, text]) => {
      const actual = bundleKiB(name);
      const said = Number(String(text).replace(/,/g, ''));
      return Math.abs(actual - said) / actual > 0.15
        ? [`${name}: the docs say ${said} KiB, the bundle is ${actual} KiB`]
        : [];
    });
    expect(wrong.join('\n')).toBe('');
  });
});

/** The size of a function's bundled handler (index.mjs of its asset), in KiB. */
function bundleKiB(name: string): number {
  const [fn] = Object.entries(resourcesOf(s.template, 'AWS::Lambda::Function')).filter(([id]) =>
    id.startsWith(`Functions${name}Function`),
  );
  const key = String((fn?.[1].Properties.Code as { S3Key?: string } | undefined)?.S3Key ?? '');
  const dir = join(s.outdir, `asset.${key.replace(/\.zip$/, '')}`);
  const file = readdirSync(dir).find((f) => /^index\.m?js$/.test(f)) ?? 'index.mjs';
  return Math.round(statSync(join(dir, file)).size / 1024);
}
