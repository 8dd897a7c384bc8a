import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a page's forms stay valid: a reviewer may leave a page open over a working day. */
const TOKEN_TTL_MS = 12 * 60 * 60_000;

/**
 * CSRF tokens of the signed-token kind: an HMAC of the reviewer's id and the time the page was
 * rendered, under a secret of the console. A form posted from another site carries no token made
 * for this reviewer, and one taken from another reviewer's page does not verify for this one.
 */
export type CsrfTokens = {
  issue(reviewerId: string): string;
  verify(reviewerId: string, token: unknown): boolean;
};

export const createCsrfTokens = (
  secret: string | Uint8Array = randomBytes(32),
  now: () => number = Date.now,
): CsrfTokens => {
  const sign = (reviewerId: string, issuedAt: string) =>
    createHmac('sha256', secret).update(`${issuedAt}\n${reviewerId}`).digest('base64url');
  return {
    issue: (reviewerId) => {
      const issuedAt = String(now());
      return `${issuedAt}.${sign(reviewerId, issuedAt)}`;
    },
    verify: (reviewerId, token) => {
      if (typeof token !== 'string' || token.length > 200) return false;
      const [issuedAt, signature] = token.split('.');
      if (issuedAt === undefined || signature === undefined || !/^[0-9]{1,15}$/.test(issuedAt)) return false;
      const age = now() - Number(issuedAt);
      if (age < 0 || age > TOKEN_TTL_MS) return false;
      const expected = Buffer.from(sign(reviewerId, issuedAt));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
};
