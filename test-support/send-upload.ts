/** An upload answer: the storage's (`url`) or the API's (`uploadUrl`). */
export type UploadLink = {
  readonly method: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly fields?: Readonly<Record<string, string>> | undefined;
} & ({ readonly url: string } | { readonly uploadUrl: string });

/**
 * Sends a file through an upload link as a browser or curl would: a PUT of the bytes with its
 * headers (memory storage's links), or a multipart/form-data POST of its fields first, then the
 * file as `file` (S3's presigned POST, bounded by its policy). The connection is closed after the
 * answer: a kept-alive one races the server's idle timeout when the test's event loop is starved
 * (ECONNRESET before any answer), which is the HTTP client's to retry, not what a test checks.
 */
export const sendUpload = (link: UploadLink, bytes: Uint8Array | string): Promise<Response> => {
  const url = 'url' in link ? link.url : link.uploadUrl;
  const body = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  if (link.method !== 'POST') {
    return fetch(url, { method: link.method, headers: { ...link.headers, connection: 'close' }, body });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(link.fields ?? {})) form.append(name, value);
  form.append('file', new Blob([body]), 'file');
  return fetch(url, { method: 'POST', headers: { ...link.headers, connection: 'close' }, body: form });
};
