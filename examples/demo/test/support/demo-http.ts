import { expect } from 'vitest';
import { sendUpload } from '../../../../test-support/send-upload.js';

/** One answer of the demo: status, headers and the parsed JSON body (null when there is none). */
export type DemoAnswer = {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field.
  readonly body: any;
};

export type DemoRequest = {
  readonly key?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
};

/**
 * Every test request closes its connection after its answer (`Connection: close`). A kept-alive
 * connection races the server's idle timeout: on a starved event loop (the full suite runs at load
 * 10 and more on 2 cores) the client can send on a socket the server is closing, and gets
 * ECONNRESET before any answer (seen once in CI, in the walkthrough). That race belongs to HTTP/1.1
 * clients, which retry it; the tests check the demo, so they do not reuse connections.
 */
const closingConnection = { connection: 'close' } as const;

/** A caller of the demo over its real socket, as curl would be: no supertest, no in-process shortcut. */
export const demoCaller =
  (origin: string) =>
  async (method: string, path: string, request: DemoRequest = {}): Promise<DemoAnswer> => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...closingConnection,
        ...(request.key === undefined ? {} : { SERVICE_API_KEY: request.key }),
        ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
    return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : null };
  };

export type DemoCall = ReturnType<typeof demoCaller>;

/** Requests upload links through the API and PUTs each file's bytes to its link. */
export const uploadThroughLinks = async (
  call: DemoCall,
  key: string,
  files: Readonly<Record<string, Uint8Array>>,
  basePath = '/manager/v1',
): Promise<void> => {
  const links = await call('POST', `${basePath}/uploads/request-batch-upload`, {
    key,
    body: { filenames: Object.keys(files) },
  });
  expect(links.status).toBe(200);
  for (const upload of links.body.uploads as Array<{
    filename: string;
    uploadUrl: string;
    method: string;
    headers: Record<string, string>;
    fields?: Record<string, string>;
  }>) {
    const bytes = files[upload.filename];
    if (bytes === undefined)
      throw new Error(`the demo answered a link for ${upload.filename}, not asked for`);
    // A PUT in memory mode, a POST of a form bounded by its policy with S3.
    const put = await sendUpload(upload, Buffer.from(bytes));
    expect(put.status).toBeLessThan(300);
  }
};

/** Presigns downloads through the API and GETs one document: its bytes and attachment name. */
export const downloadDocument = async (
  call: DemoCall,
  key: string,
  documentKey: string,
): Promise<{ bytes: Uint8Array; contentDisposition: string | null }> => {
  const presigned = await call('POST', '/manager/v1/documents/request-batch-download', {
    key,
    body: { filenames: [documentKey] },
  });
  expect(presigned.status).toBe(200);
  expect(presigned.body.downloads).toHaveLength(1);
  const download = await fetch(presigned.body.downloads[0].downloadUrl, { headers: closingConnection });
  expect(download.status).toBe(200);
  return {
    bytes: new Uint8Array(await download.arrayBuffer()),
    contentDisposition: download.headers.get('content-disposition'),
  };
};

/** The UTF-8 name of an RFC 6266 `Content-Disposition: attachment` header (filename* wins). */
export const attachmentName = (header: string | null): string | null => {
  if (header === null || !/^attachment\s*;/i.test(header)) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header);
  if (extended?.[1] !== undefined) return decodeURIComponent(extended[1]);
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(header);
  return plain?.[1] ?? null;
};

/** Bytes that are not text and not all alike, so a truncation or re-encoding shows. */
export const sampleBytes = (size: number, seed: number): Uint8Array =>
  new Uint8Array(size).map((_, index) => (index * 131 + seed * 7 + (index >> 8)) % 256);
