/**
 * Reads the counts and tables the docs give about the synthesized template (test/infra/docs.test.ts
 * compares them with it). Each reader returns what it found with the text it came from, so a failure
 * names the line to change.
 */

/** The markdown table rows (cells, trimmed) that follow the header line starting with `header`. */
function tableAfter(md: string, header: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  if (start < 0) throw new Error(`no table starting "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const ticks = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

export interface ResourceRow {
  readonly type: string;
  readonly count: number;
}

/**
 * docs/deploy.md's `| resource | count | notes |` table: `AWS::S3::Bucket` + `BucketPolicy` with
 * `2 + 2` is two rows (a short name takes the first one's service).
 */
export function resourceTable(md: string): ResourceRow[] {
  return tableAfter(md, '| resource | count |').flatMap(([names = '', counts = '']) => {
    const types = ticks(names);
    const service = (types[0] ?? '').split('::').slice(0, 2).join('::');
    const numbers = counts.split('+').map((n) => Number(n.trim()));
    if (numbers.length !== types.length || numbers.some((n) => !Number.isInteger(n))) {
      throw new Error(`resource row "${names} | ${counts}": one whole count per type`);
    }
    return types.map((t, i) => ({ type: t.includes('::') ? t : `${service}::${t}`, count: numbers[i] ?? 0 }));
  });
}

export interface CountedClaim {
  readonly type: string;
  readonly count: number;
  readonly text: string;
  readonly where: string;
}

/** Prose counts of resources: "8 alarms", "3 Lambdas", "2 Scheduler schedules", "a Glue database with 9 tables". */
const CLAIMS: readonly [RegExp, string][] = [
  [/\b(\d+) (?:CloudWatch )?alarms\b/g, 'AWS::CloudWatch::Alarm'],
  [/CloudWatch alarms \| [^|]+ \| (\d+) ×/g, 'AWS::CloudWatch::Alarm'],
  [/\b(\d+) Lambdas\b/g, 'AWS::Lambda::Function'],
  [/\b(\d+) Scheduler schedules\b/g, 'AWS::Scheduler::Schedule'],
  [/\b(\d+) state machines?\b/g, 'AWS::StepFunctions::StateMachine'],
  [/Glue database with (\d+) tables\b/g, 'AWS::Glue::Table'],
  [/\b(\d+) IAM (?:inline )?policies\b/g, 'AWS::IAM::Policy'],
];

export function countedClaims(md: string, where: string): CountedClaim[] {
  return CLAIMS.flatMap(([re, type]) =>
    [...md.matchAll(re)].map((m) => ({
      type,
      count: Number(m[1]),
      text: m[0],
      where: `${where}:${md.slice(0, m.index).split('\n').length}`,
    })),
  );
}

export interface PrivilegeRow {
  readonly role: string;
  readonly actions: readonly string[];
  /** The row says it applies only with some option ("only when …", "only with …"). */
  readonly conditional: boolean;
}

/**
 * docs/deploy.md's `| role | may | on |` table. An empty role cell continues the row above; an action
 * without a service (`DescribeSecret`) takes the one before it; `glue:GetTable/UpdateTable` is two.
 */
export function leastPrivilegeRows(md: string): PrivilegeRow[] {
  let role = '';
  return tableAfter(md, '| role | may | on |').map(([who = '', may = '']) => {
    if (who !== '') role = who;
    let service = '';
    // an action is `service:Name` or a bare `Name` (upper-case first); other code (`ssm:/path`, `recipients`) is not
    const actions = ticks(may).flatMap((token) => {
      const m = /^(?:([a-z0-9-]+):)?([A-Z*][A-Za-z*]*(?:\/[A-Z][A-Za-z*]*)*)$/.exec(token);
      if (!m) return [];
      service = m[1] ?? service;
      return (m[2] ?? '').split('/').map((n) => `${service}:${n}`);
    });
    return { role, actions, conditional: /\bonly (when|with)\b/i.test(may) };
  });
}
