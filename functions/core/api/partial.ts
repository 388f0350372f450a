/**
 * Partial results in a 2xx page: servers that answer 200 although part of the answer is missing say
 * so in the body — `errors: [{"message": "shard 3 of 4 timed out"}]`, `warnings: [...]`,
 * `partial: true`, `incomplete: true`, `status: "partial"` — at the top level or under `meta`. The
 * export turns what this finds into the report warning SERVER_PARTIAL (or a failure, with
 * `api.serverPartial: fail`).
 */

/** What a page said about itself being partial. */
export interface ServerPartial {
  /** The fields that said so (`errors`, `meta.partial` …). */
  readonly markers: readonly string[];
  /** The server's own words, first few, each cut short (untrusted: the client redacts them). */
  readonly messages: readonly string[];
}

const FLAG_KEYS = [
  'partial',
  'incomplete',
  'isPartial',
  'isIncomplete',
  'is_partial',
  'is_incomplete',
  'partialResults',
  'partial_results',
  'truncated',
  'isTruncated',
];
const LIST_KEYS = ['errors', 'warnings', 'partialFailures', 'partial_failures'];
const STATUS_KEYS = ['status', 'state', 'resultStatus', 'completeness'];
const MAX_MESSAGES = 3;
const MAX_MESSAGE_CHARS = 200;

/** The partial-result markers of a parsed page body; null when it has none. */
export function serverPartialOf(body: unknown): ServerPartial | null {
  if (!isObject(body)) return null;
  const markers: string[] = [];
  const messages: string[] = [];
  const scan = (o: Record<string, unknown>, prefix: string) => {
    for (const key of FLAG_KEYS) if (o[key] === true) markers.push(`${prefix}${key}`);
    for (const key of STATUS_KEYS) {
      const v = o[key];
      if (typeof v === 'string' && /^(partial|incomplete|truncated)/i.test(v))
        markers.push(`${prefix}${key}`);
    }
    for (const key of LIST_KEYS) {
      const v = o[key];
      const items = Array.isArray(v) ? v : isObject(v) && Object.keys(v).length > 0 ? [v] : [];
      if (items.length === 0) continue;
      markers.push(`${prefix}${key}`);
      for (const item of items) if (messages.length < MAX_MESSAGES) messages.push(messageOf(item));
    }
  };
  scan(body, '');
  if (isObject(body.meta)) scan(body.meta, 'meta.');
  return markers.length === 0 ? null : { markers, messages: messages.filter((m) => m !== '') };
}

function messageOf(item: unknown): string {
  const text = isObject(item)
    ? [item.message, item.title, item.detail, item.error, item.code].find((v) => typeof v === 'string')
    : item;
  const s = typeof text === 'string' ? text : JSON.stringify(item ?? null);
  // one line: server text goes into log lines and the email
  const line = s.replace(/[\r\n\t]+/g, ' ').trim();
  return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS - 1)}…` : line;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
