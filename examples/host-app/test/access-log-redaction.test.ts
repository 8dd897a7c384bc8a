import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createOnboardingKit, demoIdentities, seedDemoData } from '@onboarding-kit/core';
import { onboardingKitPaths, pinoRedaction, winstonRedaction } from '@onboarding-kit/express';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import { pinoHttp } from 'pino-http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import winston from 'winston';
import { createJsonLinesLogger } from '../src/json-lines-logger.js';
import { createPortalApp, ONBOARDING_PREFIX } from '../src/portal-app.js';

/**
 * The portal behind the access logs hosts use most: pino-http with its default request serializer
 * (headers and URL) and winston logging the request's URL and headers, each given the kit's
 * redaction, plus the portal's own JSON lines. A request carrying a session, an API key and a
 * signed link leaves none of the three in any line.
 */
const session = 'Bearer demo-session-manager-a';
const apiKey = demoIdentities.managerA.apiKey;
const pinoLines: string[] = [];
const winstonLines: string[] = [];
const portalLines: string[] = [];
const sink = (lines: string[]) =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const adapters = createMemoryAdapters({
    publicBaseUrl: `${origin}${onboardingKitPaths(ONBOARDING_PREFIX).storage}`,
  });
  (await seedDemoData(adapters))._unsafeUnwrap();
  const { app: portal } = createPortalApp({
    kit: createOnboardingKit(adapters),
    signedLinks: adapters.signedLinks,
    logger: createJsonLinesLogger((line) => portalLines.push(line)),
  });
  const winstonLogger = winston.createLogger({
    format: winston.format.combine(winstonRedaction, winston.format.json()),
    transports: [new winston.transports.Stream({ stream: sink(winstonLines) })],
  });
  const app = express();
  app.use(pinoHttp({ redact: pinoRedaction }, sink(pinoLines)));
  app.use((req, res, next) => {
    res.on('finish', () =>
      winstonLogger.info(`${req.method} ${req.originalUrl} ${res.statusCode}`, {
        req: { url: req.originalUrl, headers: req.headers },
      }),
    );
    next();
  });
  app.use(portal);
  server.on('request', app);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('no access log line keeps the session, the API key or a signed link’s token', async () => {
  const links = await fetch(`${origin}/onboarding/manager/v1/uploads/request-batch-upload`, {
    method: 'POST',
    headers: { Authorization: session, 'Content-Type': 'application/json' },
    body: JSON.stringify({ filenames: ['passport.pdf'] }),
  });
  expect(links.status).toBe(200);
  const [upload] = ((await links.json()) as { uploads: Array<{ uploadUrl: string }> }).uploads;
  const uploadUrl = upload?.uploadUrl ?? '';
  const token = uploadUrl.split('/uploads/')[1] ?? '';
  expect(token.length).toBeGreaterThan(20);
  const put = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { Authorization: session, SERVICE_API_KEY: apiKey, 'Content-Type': 'application/octet-stream' },
    body: 'scan',
  });
  expect(put.status).toBe(200);
  // Another spelling of a link (Express routes ignore case; %2F is a slash to a proxy) keeps its token too.
  const respelled = 'T0ken-of-a-link-spelled-otherwise_0123456789abcdef';
  for (const path of [
    `/onboarding/STORAGE/Downloads/${respelled}`,
    `/onboarding/storage/downloads%2F${respelled}`,
  ])
    await fetch(`${origin}${path}`, { headers: { Authorization: session } });
  // Lines are written when the answer finished: let the last ones land.
  await new Promise((resolve) => setTimeout(resolve, 50));

  for (const [logger, lines] of [
    ['pino-http', pinoLines],
    ['winston', winstonLines],
    ['the portal', portalLines],
  ] as const) {
    const text = lines.join('');
    expect(text, logger).toContain('/onboarding/storage/uploads/[Redacted]');
    // The kit's own route of the same shape is kept as it is.
    expect(text, logger).toContain('/onboarding/manager/v1/uploads/request-batch-upload');
    expect(text, logger).not.toContain(token);
    expect(text, logger).not.toContain(respelled);
    expect(text, logger).not.toContain(apiKey);
    expect(text, logger).not.toContain('demo-session-manager-a');
  }
  // The credentials are masked, not dropped: an operator sees they were sent.
  const pinoUpload = pinoLines
    .map((line) => JSON.parse(line) as { req?: { method: string; headers: Record<string, string> } })
    .find((entry) => entry.req?.method === 'PUT');
  expect(pinoUpload?.req?.headers).toMatchObject({
    authorization: '[Redacted]',
    service_api_key: '[Redacted]',
  });
});
