/** SigV4 presigned links live 1 second to 7 days. */
const MIN_SECONDS = 1;
const MAX_SECONDS = 7 * 24 * 60 * 60;

export type PresignWindow = { readonly expiresIn: number; readonly signingDate: Date };

/**
 * A signing date and lifetime whose end is `expiresAt`, so the link dies when the kit says it does
 * (SigV4 dates are whole seconds: the end may come up to a second early, never late). A date already past is signed so that it ended then: the server
 * refuses it, as it would refuse any expired link.
 */
export const presignWindow = (now: Date, expiresAt: Date): PresignWindow => {
  const seconds = Math.ceil((expiresAt.getTime() - now.getTime()) / 1000);
  if (seconds > MAX_SECONDS) return { expiresIn: MAX_SECONDS, signingDate: now };
  const expiresIn = Math.max(MIN_SECONDS, seconds);
  return { expiresIn, signingDate: new Date(expiresAt.getTime() - expiresIn * 1000) };
};
