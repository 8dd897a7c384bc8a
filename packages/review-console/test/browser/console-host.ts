import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ManagerPrincipal, OnboardingKit } from '@onboarding-kit/core';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { sendUpload } from '../../../../test-support/send-upload.js';
import { createReviewConsole } from '../../src/index.js';

/** The staff the test host knows: its own login (HTTP Basic), in front of the console. */
export const staff = {
  alice: { name: 'Alice Reviewer', password: 'alice-review-pass' },
  bob: { name: 'Bob Reviewer', password: 'bob-review-pass' },
} as const;
export type StaffId = keyof typeof staff;

const sameText = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The host's staff login: HTTP Basic against `staff`; who logged in is `res.locals.staff`. */
const requireStaff = (req: Request, res: Response, next: NextFunction) => {
  const [scheme, encoded] = (req.get('authorization') ?? '').split(' ');
  const [user = '', password = ''] =
    scheme === 'Basic' && encoded !== undefined
      ? Buffer.from(encoded, 'base64').toString('utf8').split(':')
      : [];
  const known = Object.hasOwn(staff, user) ? staff[user as StaffId] : undefined;
  if (known === undefined || !sameText(password, known.password)) {
    res.status(401).setHeader('WWW-Authenticate', 'Basic realm="review console"').send('Log in');
    return;
  }
  res.locals.staff = { id: user, name: known.name };
  next();
};

/** An HTTP server on 127.0.0.1, port 0, whose routes are mounted once its address is known. */
export type ListeningApp = { readonly app: Express; readonly origin: string; close(): Promise<void> };

export const listeningApp = async (): Promise<ListeningApp> => {
  const app = express();
  app.disable('x-powered-by');
  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const started = app.listen(0, '127.0.0.1', (error?: Error) =>
      error === undefined ? resolve(started) : reject(error),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    app,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * The console as a host mounts it: behind the host's staff login at /review; the reviewer is who
 * logged in, the managers' names come from the host's directory (`managerNames`).
 */
export const mountConsole = (
  app: Express,
  kit: OnboardingKit,
  managerNames: Readonly<Record<string, string>> = {},
): void => {
  app.use(
    '/review',
    requireStaff,
    createReviewConsole({
      kit,
      reviewerOf: (req) => req.res?.locals.staff as { id: string; name: string } | undefined,
      managerNames: async (ids) =>
        Object.fromEntries(
          ids.flatMap((id) => (managerNames[id] === undefined ? [] : [[id, managerNames[id]]])),
        ),
    }),
  );
};

/** The manager's side, through the kit as the host's portal calls it: upload through the link. */
export const managerUploads =
  (kit: OnboardingKit, manager: ManagerPrincipal) =>
  async (filename: string, bytes: Uint8Array): Promise<void> => {
    const batch = (
      await kit.documents.requestUploadBatch(manager, { filenames: [filename] })
    )._unsafeUnwrap();
    const [link] = batch.uploads;
    if (link === undefined) throw new Error(`no upload link for ${filename}`);
    const sent = await sendUpload(link, bytes);
    if (sent.status >= 300)
      throw new Error(`upload of ${filename} answered ${sent.status}: ${await sent.text()}`);
  };
