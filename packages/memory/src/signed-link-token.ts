import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type SignedLinkRejected, signedLinkRejected } from '@onboarding-kit/core/adapter';
import { err, ok, type Result } from 'neverthrow';

/** What a link allows: a PUT of one owner's temporary file, or a GET of one permanent document. */
export type SignedLinkPayload =
  | { readonly op: 'upload'; readonly owner: string; readonly filename: string; readonly exp: number }
  | { readonly op: 'download'; readonly key: string; readonly filename: string; readonly exp: number };

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Link tokens sealed with a key derived from the storage's secret (a string is taken as UTF-8): `base64url(iv ‖ AES-256-GCM(JSON
 * payload) ‖ tag)`, opaque and URL-safe as is. AES-256-GCM both hides the payload (an upload link
 * does not tell whoever holds it which manager or client it belongs to) and authenticates it
 * (GCM's tag check is constant time).
 */
export const linkSeal = (secret: string | Uint8Array) => {
  const key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), 'onboarding-kit signed link v2', 32));

  return {
    sign: (payload: SignedLinkPayload): string => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    /**
     * Opens the token, then checks its expiry against `now` (the adapters' clock). Anything
     * malformed is `invalid`: a caller learns nothing about why.
     */
    verify: (token: string, now: Date): Result<SignedLinkPayload, SignedLinkRejected> => {
      const bytes = Buffer.from(token, 'base64url');
      // Node's decoder skips characters outside the alphabet and ignores trailing bits, so
      // `<token>!`, `<token>%20` or a changed last character would decode to the same bytes: only a
      // token in its one canonical form is read.
      if (bytes.toString('base64url') !== token || bytes.length <= IV_BYTES + TAG_BYTES)
        return err(signedLinkRejected('invalid'));
      let payload: SignedLinkPayload;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        const sealed = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
        // Authenticated: only `sign` made it, so it is a payload of ours.
        payload = JSON.parse(Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8'));
      } catch {
        // A tag that does not verify: altered, truncated, or sealed with another secret.
        return err(signedLinkRejected('invalid'));
      }
      if (now.getTime() > payload.exp) return err(signedLinkRejected('expired'));
      return ok(payload);
    },
  };
};
