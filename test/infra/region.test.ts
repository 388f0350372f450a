import { describe, expect, it } from 'vitest';
import { assumedRegionWarning, profileRegion } from '../../infra/region';

const CONFIG = `[default]
output = json

[profile prod]
region = eu-central-1
`;

describe('a synth without a configured region', () => {
  it('warns that the CLI assumed us-east-1 and that the ARNs name it', () => {
    expect(assumedRegionWarning({ CDK_DEFAULT_REGION: 'us-east-1' }, undefined)).toMatch(
      /no AWS region is configured, so the cdk CLI assumed us-east-1, and the template's ARNs .* name us-east-1; set AWS_REGION/,
    );
    expect(assumedRegionWarning({ CDK_DEFAULT_REGION: 'us-east-1' }, CONFIG)).toBeDefined();
  });

  it('is quiet when the region was chosen: AWS_REGION, AWS_DEFAULT_REGION or the profile', () => {
    expect(
      assumedRegionWarning({ CDK_DEFAULT_REGION: 'us-east-1', AWS_REGION: 'us-east-1' }, undefined),
    ).toBeUndefined();
    expect(
      assumedRegionWarning({ CDK_DEFAULT_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'eu-west-1' }, undefined),
    ).toBeUndefined();
    expect(
      assumedRegionWarning({ CDK_DEFAULT_REGION: 'eu-central-1', AWS_PROFILE: 'prod' }, CONFIG),
    ).toBeUndefined();
    expect(assumedRegionWarning({}, undefined)).toBeUndefined();
  });

  it('reads the region of the profile in use only', () => {
    expect(profileRegion(CONFIG, 'prod')).toBe('eu-central-1');
    expect(profileRegion(CONFIG)).toBeUndefined();
    expect(profileRegion('[default]\nregion=ap-south-1\n')).toBe('ap-south-1');
  });
});
