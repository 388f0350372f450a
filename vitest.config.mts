import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the CLI's bundle, rebuilt once here when a source changed (test/support/cli-bundle.ts)
    globalSetup: ['test/support/cli-bundle.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
