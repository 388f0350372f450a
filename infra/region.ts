/**
 * Where the region in the template comes from. Without a configured region the `cdk` CLI sets
 * CDK_DEFAULT_REGION to us-east-1 by itself, and the stack writes that region into its ARNs (the SES
 * identity, SSM parameters, the event bus): a deploy meant for another region would then grant on the
 * wrong ARNs. `cdk synth` says so on stderr instead of doing it silently.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Whether the AWS config file names a region for the profile in use (`[default]` or `[profile NAME]`). */
export function profileRegion(configText: string, profile = 'default'): string | undefined {
  const header =
    profile === 'default'
      ? /^\[(default|profile default)\]\s*$/
      : new RegExp(`^\\[profile ${profile}\\]\\s*$`);
  let inSection = false;
  for (const line of configText.split(/\r?\n/)) {
    if (/^\[/.test(line)) inSection = header.test(line.trim());
    else if (inSection) {
      const m = /^\s*region\s*=\s*(\S+)/.exec(line);
      if (m) return m[1];
    }
  }
  return undefined;
}

/**
 * The warning to print when the CLI assumed a region nobody configured (no AWS_REGION or
 * AWS_DEFAULT_REGION, no region in the profile); undefined when the region was chosen.
 */
export function assumedRegionWarning(
  env: NodeJS.ProcessEnv,
  configText: string | undefined,
): string | undefined {
  const assumed = env.CDK_DEFAULT_REGION;
  if (!assumed || env.AWS_REGION || env.AWS_DEFAULT_REGION) return undefined;
  if (configText !== undefined && profileRegion(configText, env.AWS_PROFILE ?? 'default')) return undefined;
  return `warning: no AWS region is configured, so the cdk CLI assumed ${assumed}, and the template's ARNs (SES identity, SSM parameters, event bus) name ${assumed}; set AWS_REGION (or a region in your AWS profile) to the region you deploy to`;
}

/** The AWS config file's text (AWS_CONFIG_FILE or ~/.aws/config), or undefined when there is none. */
export function awsConfigText(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return readFileSync(env.AWS_CONFIG_FILE ?? join(homedir(), '.aws', 'config'), 'utf8');
  } catch {
    return undefined;
  }
}
