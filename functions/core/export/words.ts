/** The whole words of a camelCase / snake_case / kebab-case name, lower case: `avgWatchTime` → avg, watch, time. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+|(?<=\D)(?=\d)/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}
