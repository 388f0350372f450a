/**
 * `npm run deploy:local` — the whole deploy on this machine, no AWS account: starts moto_server (through
 * the deploy test's launcher, test/deploy/), runs `cdk bootstrap` and `cdk deploy` of the example config
 * into it (its API pointed at the built-in simulator), stores the API credentials in the emulated Secrets
 * Manager, runs one schedule with the CLI against the deployed bucket and secret, and prints what to look
 * at. The emulator and the simulator keep running until Ctrl-C (`--exit`: stop when done, as CI does).
 * The same path as test/deploy/deploy.test.ts: the same launcher, environment and cdk commands.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { startSimulator } from '#simulator/server';
import { ACCOUNT, cdkAgainst, REGION, ROOT, startEmulator, tracebacks } from '../test/deploy/emulator';
import { hasMoto, MOTO_MISSING } from '../test/support/servers';

// Node 20 is supported: the AWS SDK's notice about Node 22 is not one to act on here (as in the CLI)
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const STACK = 'ReportExporter';
const SCHEDULE = 'weekly-campaigns';
const exitWhenDone = process.argv.includes('--exit');
const say = (line: string) => process.stdout.write(`${line}\n`);

if (!hasMoto) {
  process.stderr.write(`deploy:local needs moto: ${MOTO_MISSING}\n`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'deploy-local-'));
const out = join(ROOT, 'out', 'local-deploy');
mkdirSync(out, { recursive: true });
const moto = await startEmulator();
const sim = await startSimulator({ seed: 1 });
const stop = async () => {
  await sim.close();
  await moto.stop();
};
process.on('SIGINT', () => {
  void stop().then(() => process.exit(0));
});

try {
  say(`moto_server (S3, CloudFormation, IAM, Lambda, Step Functions, …) on ${moto.endpoint}`);
  say(`API simulator on ${sim.baseUrl}`);
  // the example config, its API the simulator (http is allowed for 127.0.0.1 only)
  const config = join(work, 'reports.yaml');
  writeFileSync(
    config,
    readFileSync(join(ROOT, 'reports.yaml'), 'utf8').replace(/baseUrl: \S+/, `baseUrl: ${sim.baseUrl}`),
  );
  say(`cdk bootstrap aws://${ACCOUNT}/${REGION} …`);
  const tBoot = await cdkAgainst(moto, ['bootstrap', `aws://${ACCOUNT}/${REGION}`], work);
  say(`cdk deploy ${STACK} -c config=${config} … (bootstrap took ${tBoot} s)`);
  const tDeploy = await cdkAgainst(
    moto,
    ['deploy', STACK, '-c', `config=${config}`, '--method=direct', '-o', join(work, 'cdk.out')],
    ROOT,
  );
  const cfn = new CloudFormationClient(moto.clientConfig());
  const { Stacks = [] } = await cfn.send(new DescribeStacksCommand({ StackName: STACK }));
  const outputs = Object.fromEntries((Stacks[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  say(`deployed in ${tDeploy} s: ${Stacks[0]?.StackStatus}`);

  await new SecretsManagerClient(moto.clientConfig()).send(
    new CreateSecretCommand({ Name: 'reporting/v2/client', SecretString: JSON.stringify(sim.credentials) }),
  );
  const bucket = outputs.BucketName ?? '';
  const outbox = join(out, 'outbox');
  say(
    `\nreport-exporter run --schedule ${SCHEDULE} --bucket ${bucket} --email-dir ${relative(ROOT, outbox)}`,
  );
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'report-exporter.mjs'),
        'run',
        '--schedule',
        SCHEDULE,
        '--bucket',
        bucket,
        '--email-dir',
        outbox,
        '-c',
        config,
      ],
      { env: { ...moto.env(), AWS_ENDPOINT_URL_S3: moto.endpoint }, stdio: 'inherit' },
    );
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const listed = await new S3Client({ ...moto.clientConfig(), forcePathStyle: true }).send(
    new ListObjectsV2Command({ Bucket: bucket }),
  );
  const problems = tracebacks(moto.log());
  say(`
What to look at (the emulator answers until Ctrl-C${exitWhenDone ? '; --exit: stopping now' : ''}):
  stack outputs:        ${Object.entries(outputs)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n                        ')}
  objects in the bucket: ${listed.KeyCount ?? 0} (first: ${listed.Contents?.[0]?.Key ?? 'none'})
  summary emails:       ${relative(process.cwd(), outbox)}/
  the template:         ${join(work, 'cdk.out', `${STACK}.template.json`)}
  with the AWS CLI:     export AWS_ENDPOINT_URL=${moto.endpoint} AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=${REGION}
                        aws s3 ls s3://${bucket}/exports/ --recursive
                        aws cloudformation describe-stack-resources --stack-name ${STACK}
  run exit code:        ${code}; emulator tracebacks: ${problems.length}`);
  if (exitWhenDone || code !== 0) {
    await stop();
    process.exit(code === 0 && problems.length === 0 ? 0 : 1);
  }
} catch (err: unknown) {
  process.stderr.write(`deploy:local failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await stop();
  process.exit(1);
}
