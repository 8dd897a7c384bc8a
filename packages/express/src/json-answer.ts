import type { Response } from 'express';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes one JSON answer of the kit's interfaces: the status, `Content-Type: application/json;
 * charset=utf-8`, `Cache-Control: no-store`, the length and the body, and nothing else.
 *
 * - `no-store`: every answer is one principal's view of client data (KYC/KYB details, documents,
 *   fees); no shared or browser cache may keep it. This is also why no `ETag` is computed for caching
 *   (Express's `res.json` hashes every body for one): an answer no cache may keep is never
 *   revalidated. A Client's own version is another matter: GET /clients/:clientId answers it as
 *   `ETag` for a decision's `If-Match` (`client-etag.ts`).
 * - The body is `JSON.stringify` of the value, whatever the host's `json spaces`, `json replacer`
 *   or `json escape` app settings say: the wire format of the API is the contract's, not the host's.
 * - A HEAD request gets the headers without the body (Node drops it).
 * - `contentType`: error answers may be another JSON media type (`application/problem+json`).
 */
export const sendJsonAnswer = (
  res: Response,
  status: number,
  value: unknown,
  headers?: Readonly<Record<string, string>>,
  contentType: string = JSON_CONTENT_TYPE,
): void => {
  const text = JSON.stringify(value) ?? 'null';
  res.statusCode = status;
  if (headers !== undefined) {
    for (const name of Object.keys(headers)) res.setHeader(name, headers[name] as string);
  }
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
  res.end(text);
};
