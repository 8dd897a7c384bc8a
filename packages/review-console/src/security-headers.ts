import type { Response } from 'express';

/**
 * The headers of every console page: no script but the console's own file (no inline script, no
 * eval), no style but its own sheet, forms posting only back to the console, never framed, and
 * nothing kept by a browser or a proxy (the pages show personal data).
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const setConsoleHeaders = (res: Response): void => {
  res.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
};
