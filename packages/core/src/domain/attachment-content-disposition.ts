import { toWellFormedText } from '../validation/parse-request.js';

/**
 * The one `Content-Disposition: attachment` of a document download, for every adapter (the signed
 * link route of the Express binding writes it as a header, the S3 adapter signs it into the link as
 * `response-content-disposition`), per RFC 6266:
 * - `filename="…"`: a printable-ASCII fallback for old agents. Accents are dropped (NFKD without
 *   marks), anything else non-ASCII becomes `_`, and so do `"` and `\` (quoted-pairs are handled
 *   inconsistently), `%` (some agents percent-decode this parameter, RFC 6266 appendix D) and `/`
 *   (NFKD turns the fullwidth `．／` of a valid name into `../`). A fallback of dots alone (`．．`)
 *   is `download`: never a path step.
 * - `filename*=UTF-8''…`: the exact name (RFC 5987 attr-chars kept, every other UTF-8 byte as `%XX`),
 *   which every current browser prefers.
 * Total: a name the filename rule would refuse (an unpaired surrogate, a control character) still
 * yields a valid header value, with U+FFFD in place of the surrogate.
 */
export const attachmentContentDisposition = (filename: string): string => {
  const name = toWellFormedText(filename);
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${rfc5987Encode(name)}`;
};

const asciiFallback = (filename: string): string => {
  const fallback = Array.from(filename.normalize('NFKD'))
    .filter((char) => !/\p{M}/u.test(char))
    .map((char) => (/^[\x20-\x7e]$/.test(char) && !/["\\%/]/.test(char) ? char : '_'))
    .join('');
  return /^\.*$/.test(fallback) ? 'download' : fallback;
};

/** RFC 5987 attr-char keeps `!#$&+-.^_\`|~` and alphanumerics; everything else is `%XX` of UTF-8. */
const rfc5987Encode = (value: string): string =>
  encodeURIComponent(value)
    .replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(2[346B]|5E|60|7C)/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
