/**
 * The CLI's cache of validated configs (functions/adapters/config-cache.ts), keyed to the build: the
 * bundle's id is a hash of the sources it was built from (scripts/build-cli.mjs). From the TypeScript
 * sources (tsx, the tests) there is no build to key to, so there is no cache.
 */
import { type ConfigCache, configCache, configCacheDir } from '#adapters/config-cache';

declare const __CLI_BUILD_ID__: string | undefined;

/** The bundle's build id; undefined when the sources run unbundled. */
const CLI_BUILD_ID: string | undefined = typeof __CLI_BUILD_ID__ === 'string' ? __CLI_BUILD_ID__ : undefined;

/**
 * What a cache entry is keyed to besides its text: the build, and the Node and ICU that validated it
 * (the config schema accepts a timezone or a currency when Node's ICU knows it, and another Node or ICU
 * may know others).
 */
export function validatorId(
  buildId: string,
  versions: Readonly<Record<string, string | undefined>> = process.versions,
): string {
  return `${buildId} node ${versions.node ?? '?'} icu ${versions.icu ?? '?'} tz ${versions.tz ?? '?'}`;
}

/** The cache for this process, or undefined (unbundled, turned off, or no home for it). */
export function cliConfigCache(env: NodeJS.ProcessEnv = process.env): ConfigCache | undefined {
  const dir = configCacheDir(env);
  return CLI_BUILD_ID === undefined || dir === undefined
    ? undefined
    : configCache(dir, validatorId(CLI_BUILD_ID));
}
