/**
 * The synthesized template's values with CloudFormation's intrinsic functions resolved against what
 * was deployed (the physical ids the emulator's CloudFormation reports), so that each property can be
 * compared with what the service APIs read back (not a test file). Unknown functions or attributes
 * throw, naming themselves, rather than compare something wrong.
 */
import { ACCOUNT, REGION } from './emulator';

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
}
export interface CfnTemplate {
  readonly Resources: Record<string, TemplateResource>;
  readonly Outputs?: Record<string, { Value: unknown }>;
}

const PSEUDO: Record<string, string> = {
  'AWS::AccountId': ACCOUNT,
  'AWS::Region': REGION,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::NoValue': '',
};

/** `Fn::GetAtt` of the attributes the stack uses, from a resource's type and physical id. */
function attribute(type: string, id: string, name: string): string {
  const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;
  const table: Record<string, Record<string, () => string>> = {
    'AWS::Lambda::Function': { Arn: () => arn('lambda', `function:${id}`) },
    'AWS::IAM::Role': { Arn: () => `arn:aws:iam::${ACCOUNT}:role/${id}` },
    'AWS::S3::Bucket': { Arn: () => `arn:aws:s3:::${id}` },
    'AWS::SQS::Queue': {
      Arn: () => arn('sqs', id.split('/').pop() ?? ''),
      QueueName: () => id.split('/').pop() ?? '',
      QueueUrl: () => id,
    },
    // AWS's Arn attribute ends in `:*`; moto's does not, and what moto resolved is what was deployed.
    'AWS::Logs::LogGroup': { Arn: () => arn('logs', `log-group:${id}`) },
    'AWS::KMS::Key': { Arn: () => arn('kms', `key/${id}`), KeyId: () => id },
    'AWS::CloudWatch::Alarm': { Arn: () => arn('cloudwatch', `alarm:${id}`) },
    'AWS::SNS::Topic': { TopicArn: () => id, TopicName: () => id.split(':').pop() ?? '' },
    'AWS::StepFunctions::StateMachine': { Arn: () => id, Name: () => id.split(':').pop() ?? '' },
  };
  const get = table[type]?.[name];
  if (!get)
    throw new Error(`the deploy test cannot resolve Fn::GetAtt ${type}.${name}; add it to intrinsics.ts`);
  return get();
}

export class Resolver {
  constructor(
    private readonly template: CfnTemplate,
    private readonly physical: Readonly<Record<string, string>>,
  ) {}

  physicalId(logicalId: string): string {
    const id = this.physical[logicalId];
    if (id === undefined) throw new Error(`${logicalId} was not deployed`);
    return id;
  }

  private ref(name: string): string {
    return PSEUDO[name] ?? this.physicalId(name);
  }

  private getAtt(logicalId: string, name: string): string {
    const type = this.template.Resources[logicalId]?.Type ?? '?';
    return attribute(type, this.physicalId(logicalId), name);
  }

  /** The value with every intrinsic function replaced by what it resolves to. */
  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    const [only] = entries;
    if (entries.length === 1 && only && (only[0] === 'Ref' || only[0].startsWith('Fn::'))) {
      const [fn, arg] = only;
      if (fn === 'Ref') return this.ref(String(arg));
      if (fn === 'Fn::GetAtt') {
        const [id, name] = Array.isArray(arg) ? arg.map(String) : String(arg).split('.');
        return this.getAtt(String(id), String(name));
      }
      if (fn === 'Fn::Join') {
        const [sep, parts] = arg as [string, unknown[]];
        return (this.resolve(parts) as unknown[]).join(sep);
      }
      if (fn === 'Fn::Select') {
        const [index, list] = arg as [number, unknown];
        return (this.resolve(list) as unknown[])[Number(index)];
      }
      if (fn === 'Fn::Split') {
        const [sep, text] = arg as [string, unknown];
        return String(this.resolve(text)).split(sep);
      }
      if (fn === 'Fn::Sub') {
        const [text, vars] = (Array.isArray(arg) ? arg : [arg, {}]) as [string, Record<string, unknown>];
        return text.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
          if (name in vars) return String(this.resolve(vars[name]));
          const [id, att] = name.split('.');
          return att ? this.getAtt(String(id), att) : this.ref(name);
        });
      }
      throw new Error(`the deploy test cannot resolve ${fn}; add it to intrinsics.ts`);
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, this.resolve(v)]));
  }
}
