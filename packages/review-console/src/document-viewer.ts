import { Readable } from 'node:stream';
import type { Response } from 'express';

/** The kinds a browser shows inline; any other document downloads as an attachment. */
const inlineTypes: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** `filename*` of RFC 6266, percent-encoded UTF-8: any name, no quoting problem. */
const dispositionOf = (kind: 'inline' | 'attachment', filename: string): string =>
  `${kind}; filename*=UTF-8''${encodeURIComponent(filename)}`;

/**
 * Sends a document fetched from the kit's presigned link, inline when the browser can show it
 * safely (PDF and images, by the file's extension, with nosniff), else as an attachment. The
 * document gets a policy of its own: nothing it holds may run script or load anything.
 */
export const sendDocument = async (
  res: Response,
  fetchDocument: typeof fetch,
  downloadUrl: string,
  filename: string,
): Promise<void> => {
  const fetched = await fetchDocument(downloadUrl, { redirect: 'error' });
  if (!fetched.ok || fetched.body === null) {
    res.status(502).type('text/plain').send('The document could not be read from storage.');
    return;
  }
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  const type = inlineTypes[extension];
  res.status(200);
  res.setHeader('Content-Type', type ?? 'application/octet-stream');
  res.setHeader('Content-Disposition', dispositionOf(type === undefined ? 'attachment' : 'inline', filename));
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'",
  );
  const length = fetched.headers.get('content-length');
  if (length !== null) res.setHeader('Content-Length', length);
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(fetched.body as import('node:stream/web').ReadableStream)
      .pipe(res)
      .on('finish', resolve)
      .on('error', reject);
  });
};
