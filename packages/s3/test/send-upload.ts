import type { PresignedUpload } from '@onboarding-kit/core/adapter';

/**
 * Sends a file through an upload answer as a browser or curl would: a PUT of the bytes with its
 * headers, or a multipart/form-data POST of its fields first, then the file as `file`.
 */
export const sendUpload = (upload: PresignedUpload, bytes: Uint8Array): Promise<Response> => {
  if (upload.method === 'PUT') {
    return fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), 'file');
  return fetch(upload.url, { method: 'POST', headers: upload.headers, body: form });
};
