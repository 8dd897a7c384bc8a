/**
 * `attachment` with the original filename, per RFC 6266: an ASCII `filename` fallback for old
 * agents, and `filename*` (RFC 5987, UTF-8, percent-encoded) that every current browser prefers.
 */
export const attachmentContentDisposition = (filename: string): string =>
  `attachment; filename="${asciiFallback(filename)}"; filename*=UTF-8''${rfc5987Encode(filename)}`;

/**
 * Printable ASCII only; `"` and `\` would need quoted-pairs that agents handle inconsistently, and
 * `%` may be percent-decoded by some (RFC 6266 appendix D), so all three become `_`.
 */
const asciiFallback = (filename: string): string => {
  const fallback = Array.from(filename.normalize('NFKD'))
    .filter((char) => !/\p{M}/u.test(char))
    .map((char) => (/^[\x20-\x7e]$/.test(char) && !/["\\%]/.test(char) ? char : '_'))
    .join('');
  return fallback.length > 0 ? fallback : 'download';
};

/** RFC 5987 attr-char keeps `!#$&+-.^_\`|~` and alphanumerics; everything else is `%XX` of UTF-8. */
const rfc5987Encode = (value: string): string =>
  encodeURIComponent(value)
    .replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(2[346B]|5E|60|7C)/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
