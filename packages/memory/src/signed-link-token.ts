import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type SignedLinkRejected, signedLinkRejected } from '@onboarding-kit/core/adapter';
import { err, ok, type Result } from 'neverthrow';

/** What a link allows: a PUT of one owner's temporary file, or a GET of one permanent document. */
export type SignedLinkPayload =
  | { readonly op: 'upload'; readonly owner: string; readonly filename: string; readonly exp: number }
  | { readonly op: 'download'; readonly key: string; readonly filename: string; readonly exp: number };

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The link key, derived from the storage's secret. AES-256-GCM both hides the payload (an upload
 * link does not tell whoever holds it which manager or client it belongs to) and authenticates it
 * (GCM's tag check is constant time).
 */
const keyCache = new WeakMap<Uint8Array, Buffer>();
const linkKeyOf = (secret: Uint8Array): Buffer => {
  const cached = keyCache.get(secret);
  if (cached) return cached;
  const key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), 'onboarding-kit signed link v2', 32));
  keyCache.set(secret, key);
  return key;
};

/** `base64url(iv ‖ AES-256-GCM(JSON payload) ‖ tag)`: opaque, URL-safe as is. */
export const signLink = (secret: Uint8Array, payload: SignedLinkPayload): string => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', linkKeyOf(secret), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
};

/**
 * The bytes of a token in its one canonical form, or null. Node's base64url decoder skips
 * characters outside the alphabet and ignores trailing bits, so `<token>!`, `<token>%20` or a
 * changed last character would otherwise decode to the same bytes: only a token that re-encodes to
 * itself is read.
 */
const canonicalBytes = (token: string): Buffer | null => {
  if (!BASE64URL.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  return bytes.toString('base64url') === token ? bytes : null;
};

const open = (secret: Uint8Array, token: string): SignedLinkPayload | null => {
  const bytes = canonicalBytes(token);
  if (bytes === null || bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', linkKeyOf(secret), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const json = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    // Authenticated: only `signLink` made it, so it is a payload of ours.
    return JSON.parse(json) as SignedLinkPayload;
  } catch {
    // A tag that does not verify: altered, truncated, or sealed with another secret.
    return null;
  }
};

/**
 * Opens the token (authenticated decryption), then checks the expiry against `now` (the adapters'
 * clock). Anything malformed is `invalid`: a caller learns nothing about why.
 */
export const verifyLink = (
  secret: Uint8Array,
  token: string,
  now: Date,
): Result<SignedLinkPayload, SignedLinkRejected> => {
  const payload = open(secret, token);
  if (payload === null) return err(signedLinkRejected('invalid'));
  if (now.getTime() > payload.exp) return err(signedLinkRejected('expired'));
  return ok(payload);
};
