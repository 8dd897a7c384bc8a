/**
 * What a host's access log must not keep of the kit's requests: the credentials in headers (the
 * kit's `SERVICE_API_KEY`, the host's own `Authorization` and cookies) and the token of a signed
 * upload or download link, which is the credential of that link for its whole life. Plain data and
 * functions: the host passes them to its own pino or winston, neither is a dependency of the kit.
 */

/** What a redacted value is replaced with. */
export const REDACTED = '[Redacted]';

/** Header names (as Node hands them over, lower-cased) whose values are credentials. */
export const SECRET_HEADER_NAMES = [
  'service_api_key',
  'authorization',
  'proxy-authorization',
  'cookie',
] as const;

const secretHeaderNames = new Set<string>(SECRET_HEADER_NAMES);

// A signed link's token: the path segment after `/uploads/` or `/downloads/` (memory storage's
// links, under any prefix; Express routes ignore case, and `%2F` is a slash to a proxy), except the
// kit's own route `/uploads/request-batch-upload`.
const SIGNED_LINK_TOKEN =
  /(\/(?:uploads|downloads)(?:\/|%2F)+)(?!request-batch-upload(?:[/?#\s"']|$))[^/?#\s"']+/gi;
// A presigned S3 link's credentials, in its query.
const PRESIGNED_QUERY_SECRET = /([?&]X-Amz-(?:Signature|Credential|Security-Token)=)[^&#\s"']+/gi;

/** The URL, path or text with every signed link's token and presigned signature replaced. */
export const redactSignedLinkTokens = (text: string): string =>
  text.replace(SIGNED_LINK_TOKEN, `$1${REDACTED}`).replace(PRESIGNED_QUERY_SECRET, `$1${REDACTED}`);

/**
 * A copy of a log record (any depth) with the value of every secret header name masked and every
 * string stripped of link tokens. Plain objects and arrays are copied, never changed in place (a
 * record may hold the live `req.headers`); symbol keys (winston's) are kept.
 */
export const redactLogSecrets = <T>(record: T): T => redactValue(record, new WeakSet()) as T;

const redactValue = (value: unknown, seen: WeakSet<object>): unknown => {
  if (typeof value === 'string') return redactSignedLinkTokens(value);
  if (typeof value !== 'object' || value === null || seen.has(value)) return value;
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((item) => redactValue(item, seen));
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  seen.add(value);
  const copy: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    const field = (value as Record<PropertyKey, unknown>)[key];
    copy[key] =
      typeof key === 'string' && secretHeaderNames.has(key.toLowerCase())
        ? REDACTED
        : redactValue(field, seen);
  }
  return copy;
};

/**
 * pino's `redact` option for pino-http's request log: `pinoHttp({ redact: pinoRedaction })`. The
 * credential headers are masked; the URL keeps its path with the token replaced.
 */
export const pinoRedaction = {
  paths: [...SECRET_HEADER_NAMES.map((name) => `req.headers["${name}"]`), 'req.url', 'req.params.token'],
  censor: (value: unknown, path: readonly string[]): unknown =>
    path.at(-1) === 'url' && typeof value === 'string' ? redactSignedLinkTokens(value) : REDACTED,
};

/**
 * A winston (logform) format, first in the chain: `format.combine(winstonRedaction, format.json())`.
 * It redacts the whole record, so express-winston's `meta.req` is covered as well as a message.
 */
export const winstonRedaction = {
  transform: <T extends object>(info: T): T => redactLogSecrets(info),
};
