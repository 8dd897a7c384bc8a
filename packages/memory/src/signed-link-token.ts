import { createHmac, timingSafeEqual } from 'node:crypto';
import { type SignedLinkRejected, signedLinkRejected } from '@onboarding-kit/core';
import { err, ok, type Result } from 'neverthrow';

/** What a link allows: a PUT of one owner's temporary file, or a GET of one permanent document. */
export type SignedLinkPayload =
  | { readonly op: 'upload'; readonly owner: string; readonly filename: string; readonly exp: number }
  | { readonly op: 'download'; readonly key: string; readonly filename: string; readonly exp: number };

const signatureOf = (secret: Uint8Array, encodedPayload: string): Buffer =>
  createHmac('sha256', secret).update(encodedPayload).digest();

/** `base64url(JSON payload)` + `.` + `base64url(HMAC-SHA256 of the first part)`: URL-safe as is. */
export const signLink = (secret: Uint8Array, payload: SignedLinkPayload): string => {
  const encodedPayload = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${encodedPayload}.${signatureOf(secret, encodedPayload).toString('base64url')}`;
};

const isString = (value: unknown): value is string => typeof value === 'string';

const parsePayload = (json: string): SignedLinkPayload | null => {
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null) return null;
  const fields = value as Record<string, unknown>;
  const { op, filename, exp } = fields;
  if (!isString(filename) || typeof exp !== 'number') return null;
  if (op === 'upload' && isString(fields.owner)) return { op, owner: fields.owner, filename, exp };
  if (op === 'download' && isString(fields.key)) return { op, key: fields.key, filename, exp };
  return null;
};

/**
 * Checks the signature in constant time, then the expiry against `now` (the adapters' clock).
 * Anything malformed is `invalid`: a caller learns nothing about why.
 */
export const verifyLink = (
  secret: Uint8Array,
  token: string,
  now: Date,
): Result<SignedLinkPayload, SignedLinkRejected> => {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return err(signedLinkRejected('invalid'));
  const encodedPayload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = signatureOf(secret, encodedPayload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return err(signedLinkRejected('invalid'));
  }
  let payload: SignedLinkPayload | null;
  try {
    payload = parsePayload(Buffer.from(encodedPayload, 'base64url').toString('utf8'));
  } catch {
    payload = null;
  }
  if (payload === null) return err(signedLinkRejected('invalid'));
  if (now.getTime() > payload.exp) return err(signedLinkRejected('expired'));
  return ok(payload);
};
