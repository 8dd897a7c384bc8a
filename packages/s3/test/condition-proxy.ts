import { request, type ServerResponse } from 'node:http';
import {
  failed,
  type PassThroughProxy,
  startPassThroughProxy,
} from '../../../test-support/pass-through-proxy.js';

/**
 * A pass-through HTTP proxy in front of a real S3-compatible server that enforces two conditions
 * AWS S3 enforces and the test servers ignore (s3rver and moto 5.2 both do):
 * - CopyObject with `x-amz-copy-source-if-match`: 412 `PreconditionFailed` when the source's ETag
 *   differs (a missing source is left to the server: `NoSuchKey`).
 * - DeleteObjects naming an `<ETag>` per object: an object whose ETag differs is kept and reported
 *   as a `PreconditionFailed` error of the result, the others are deleted.
 * - A browser-style POST upload whose policy has a `content-length-range`: a file outside it is
 *   refused with 400 `EntityTooLarge` / `EntityTooSmall` and not stored.
 * Everything else reaches the server unchanged. The servers check no signature, so the proxy's own
 * HEAD and DELETE requests go unsigned.
 */
export type ConditionProxy = PassThroughProxy;

const xmlUnescape = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
const xmlEscape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const objectPath = (bucket: string, key: string): string =>
  `/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

export const startConditionProxy = async (target: string): Promise<ConditionProxy> => {
  const upstream = new URL(target);
  const send = (method: string, path: string): Promise<{ status: number; etag: string | undefined }> =>
    new Promise((resolve, reject) => {
      const outgoing = request(
        { hostname: upstream.hostname, port: upstream.port, method, path },
        (answer) => {
          answer.resume();
          answer.once('end', () =>
            resolve({
              status: answer.statusCode ?? 0,
              etag: typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined,
            }),
          );
        },
      );
      outgoing.once('error', reject);
      outgoing.end();
    });
  const answerXml = (outgoing: ServerResponse, status: number, body: string) => {
    outgoing.writeHead(status, {
      'content-type': 'application/xml',
      'content-length': Buffer.byteLength(body),
    });
    outgoing.end(body);
  };
  return startPassThroughProxy(target, (incoming, outgoing, forward) => {
    const copySource = incoming.headers['x-amz-copy-source'];
    const ifMatch = incoming.headers['x-amz-copy-source-if-match'];
    if (incoming.method === 'PUT' && typeof copySource === 'string' && typeof ifMatch === 'string') {
      const sourcePath = `/${copySource.replace(/^\//, '').split('?')[0]}`;
      send('HEAD', sourcePath)
        .then(({ status, etag }) => {
          if (status === 200 && etag !== ifMatch) {
            incoming.resume();
            answerXml(
              outgoing,
              412,
              '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code>' +
                '<Message>At least one of the pre-conditions you specified did not hold</Message>' +
                '<Condition>x-amz-copy-source-If-Match</Condition></Error>',
            );
          } else forward(incoming, outgoing);
        })
        .catch((error: unknown) => failed(outgoing, error));
      return;
    }
    const url = new URL(incoming.url ?? '/', 'http://proxy');
    const contentType = incoming.headers['content-type'] ?? '';
    if (incoming.method === 'POST' && contentType.startsWith('multipart/form-data')) {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => {
        const body = Buffer.concat(chunks);
        new Request('http://proxy/', { method: 'POST', headers: { 'content-type': contentType }, body })
          .formData()
          .then((form) => {
            const policy = JSON.parse(
              Buffer.from(String(form.get('Policy') ?? form.get('policy') ?? ''), 'base64').toString(
                'utf8',
              ) || '{}',
            ) as {
              conditions?: unknown[];
            };
            const range = (policy.conditions ?? []).find(
              (condition): condition is [string, number, number] =>
                Array.isArray(condition) && condition[0] === 'content-length-range',
            );
            const file = form.get('file');
            const size = typeof file === 'object' && file !== null ? (file as Blob).size : 0;
            if (range !== undefined && (size < range[1] || size > range[2])) {
              const code = size > range[2] ? 'EntityTooLarge' : 'EntityTooSmall';
              answerXml(
                outgoing,
                400,
                `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code>` +
                  '<Message>Your proposed upload exceeds the maximum allowed size</Message></Error>',
              );
              return;
            }
            forward(incoming, outgoing, { body });
          })
          .catch((error: unknown) => failed(outgoing, error));
      });
      return;
    }
    if (incoming.method === 'POST' && url.searchParams.has('delete')) {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => {
        const body = Buffer.concat(chunks);
        const xml = body.toString('utf8');
        if (!xml.includes('<ETag>')) {
          forward(incoming, outgoing, { body });
          return;
        }
        const bucket = url.pathname.split('/')[1] ?? '';
        const objects = [...xml.matchAll(/<Object>([\s\S]*?)<\/Object>/g)].map(([, inner]) => ({
          key: xmlUnescape(/<Key>([\s\S]*?)<\/Key>/.exec(inner ?? '')?.[1] ?? ''),
          etag: /<ETag>([\s\S]*?)<\/ETag>/.exec(inner ?? '')?.[1],
        }));
        (async () => {
          const errors: string[] = [];
          for (const { key, etag } of objects) {
            const path = objectPath(bucket, key);
            if (etag !== undefined) {
              const head = await send('HEAD', path);
              if (head.status === 200 && head.etag !== xmlUnescape(etag)) {
                errors.push(
                  `<Error><Key>${xmlEscape(key)}</Key><Code>PreconditionFailed</Code>` +
                    '<Message>At least one of the pre-conditions you specified did not hold</Message></Error>',
                );
                continue;
              }
            }
            await send('DELETE', path);
          }
          answerXml(
            outgoing,
            200,
            `<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${errors.join('')}</DeleteResult>`,
          );
        })().catch((error: unknown) => failed(outgoing, error));
      });
      return;
    }
    forward(incoming, outgoing);
  });
};
