import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client, DomainError, OnboardingKit } from '@onboarding-kit/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { ResultAsync } from 'neverthrow';
import { clientPage } from './client-page.js';
import { type ActionOutcome, runConsoleAction } from './console-action.js';
import { createCsrfTokens } from './csrf-token.js';
import { sendDocument } from './document-viewer.js';
import { actionPath, type FormAction, formActions } from './form-actions.js';
import { html, type SafeHtml } from './html-template.js';
import { type PageContext, pageLayout, SEEN_FIELD } from './page-layout.js';
import { type QueueFilters, queuePage } from './queue-page.js';
import { type Reviewer, type ReviewerOf, reviewerPrincipal } from './reviewer.js';
import { setConsoleHeaders } from './security-headers.js';

export type ReviewConsoleOptions = {
  readonly kit: OnboardingKit;
  /**
   * The reviewer of a request the host's own authentication let through (mounted in front of the
   * console): its id is the actor of every action. The console reads no header of its own to
   * know who calls; undefined answers 403.
   */
  readonly reviewerOf: ReviewerOf;
  /**
   * Every page, no action: any request other than GET or HEAD answers 405, but opening a
   * document (a read, posted to keep its key out of the URL).
   */
  readonly readOnly?: boolean;
  /**
   * The secret the forms' CSRF tokens are signed with. Default: random at start (forms opened
   * before a restart, or served by another instance, are then refused once).
   */
  readonly csrfSecret?: string | Uint8Array;
  /** How the console reads a document from the kit's presigned link (default: the global fetch). */
  readonly fetchDocument?: typeof fetch;
  /**
   * The names of the queue's managers, by the kit's `managerId` (the host's own ids), asked once
   * per queue page with the page's distinct ids. Default: the queue shows the ids. An id without a
   * name shows as itself.
   */
  readonly managerNames?: (
    managerIds: readonly string[],
  ) => Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>>;
  /** The clock of the "waiting since" column (default: now). */
  readonly now?: () => number;
};

// Works from src/ (tests) and from dist/ (the published build): both sit beside assets/.
const asset = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../assets/${name}`, import.meta.url)), 'utf8');

const QUEUE_PAGE_SIZE = 50;
const AUDIT_PAGE_SIZE = 100;

/** What each action tells the reviewer once done (a code in the redirect, never personal data). */
const notices: Readonly<Record<string, string>> = {
  assigned: 'The client is assigned to you.',
  released: 'The client is unassigned.',
  approved: 'Approved: the client now signs the terms.',
  'resubmission-requested': 'The manager is asked to resubmit.',
  'terms-signed': 'The signature is recorded: the client is verified.',
  deleted: 'The client is deleted.',
  redacted: "The client's personal data is erased.",
  'hit-resolved': 'The decision on the hit is recorded.',
  'none-waiting': 'No unassigned client waits.',
  'in-progress': 'That action is already running (submitted twice); it acts once.',
};

/** How a domain error's `type` is spelled (`InvalidStatus`, `ScreeningUnresolved`): words run together. */
const ERROR_TYPE_NAME = /^(?:[A-Z][a-z]+){1,6}$/;

const problemText = (error: DomainError): string => {
  switch (error.type) {
    case 'ScreeningUnresolved':
      return 'Refused: the screening is not resolved (see what stands in the way).';
    case 'InvalidStatus':
      return `Refused: the client is ${error.currentStatus}, which does not allow this.`;
    case 'ClientNotFound':
      return 'No such client.';
    case 'ValidationFailed':
      return `${error.reason}: ${Object.entries(error.parameterErrors ?? {})
        .map(([path, messages]) => `${path}: ${messages.join(', ')}`)
        .join('; ')}`;
    default:
      return `Refused (${error.type}).`;
  }
};

const noticeBox = (text: string | undefined, kind: 'status' | 'alert'): SafeHtml | string =>
  text === undefined ? '' : html`<div class="notice ${kind}" role="${kind}">${text}</div>`;

/**
 * Opening a document is a read (a POST only so that its key stays out of the URL): allowed in
 * read-only mode, with its CSRF token, and audited as every link issued.
 */
const isDocumentOpening = (req: Request): boolean =>
  req.method === 'POST' && /^\/clients\/[^/]+\/documents\/open$/.test(req.path);

const single = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The review console: a router the host mounts behind its own staff authentication, in one call
 * (`app.use('/review', requireStaff, createReviewConsole({ kit, reviewerOf }))`). It serves
 * server-rendered pages and its own two static files; every action goes through the kit's
 * services with the reviewer as the actor.
 */
export const createReviewConsole = (options: ReviewConsoleOptions): Router => {
  const { kit, reviewerOf } = options;
  const readOnly = options.readOnly ?? false;
  const csrf = createCsrfTokens(options.csrfSecret);
  const fetchDocument = options.fetchDocument ?? fetch;
  const now = options.now ?? Date.now;
  const assets = { 'console.css': asset('console.css'), 'console.js': asset('console.js') };
  const router = express.Router();

  const reviewerOfRequest = (_req: Request, res: Response): Reviewer => res.locals.reviewer as Reviewer;
  const contextOf = (req: Request, res: Response): PageContext => {
    const reviewer = reviewerOfRequest(req, res);
    return { base: req.baseUrl, reviewer, readOnly, csrfToken: csrf.issue(reviewer.id) };
  };
  const sendPage = (res: Response, status: number, page: SafeHtml) => {
    res.status(status).type('text/html; charset=utf-8').send(page.markup);
  };
  const failPage = (req: Request, res: Response, status: number, message: string) =>
    sendPage(
      res,
      status,
      pageLayout(contextOf(req, res), 'Problem', html`<h1>Problem</h1>${noticeBox(message, 'alert')}`),
    );

  router.use((req, res, next) => {
    setConsoleHeaders(res);
    const reviewer = reviewerOf(req);
    if (reviewer === undefined || typeof reviewer.id !== 'string' || reviewer.id === '') {
      res
        .status(403)
        .type('text/plain')
        .send('Forbidden: the host did not name a reviewer for this request.');
      return;
    }
    res.locals.reviewer = reviewer;
    if (readOnly && req.method !== 'GET' && req.method !== 'HEAD' && !isDocumentOpening(req)) {
      res
        .status(405)
        .setHeader('Allow', 'GET, HEAD')
        .type('text/plain')
        .send('The review console is read-only.');
      return;
    }
    next();
  });

  router.get('/assets/:name', (req, res) => {
    const name = req.params.name as keyof typeof assets;
    const body = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (body === undefined) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    // Static and free of personal data: cacheable, unlike the pages.
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type(name.endsWith('.css') ? 'text/css' : 'text/javascript').send(body);
  });

  const pageNotice = (req: Request): SafeHtml | string => {
    // A link's query names a notice of the console's, or an error type: it never writes text.
    const done = single(req.query.notice);
    const problem = single(req.query.problem);
    return html`${noticeBox(done !== undefined && Object.hasOwn(notices, done) ? notices[done] : undefined, 'status')}${noticeBox(
      problem !== undefined && ERROR_TYPE_NAME.test(problem) ? `Refused (${problem}).` : undefined,
      'alert',
    )}`;
  };

  router.get('/', async (req, res) => {
    const filters: QueueFilters = Object.fromEntries(
      ['status', 'clientType', 'screening', 'assignee'].flatMap((name) => {
        const value = single(req.query[name]);
        return value === undefined ? [] : [[name, value]];
      }),
    );
    const cursor = single(req.query.cursor);
    const queue = await kit.review.queue(reviewerPrincipal(reviewerOfRequest(req, res)), {
      ...filters,
      limit: QUEUE_PAGE_SIZE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (queue.isErr()) return failPage(req, res, 400, problemText(queue.error));
    const managerIds = [
      ...new Set(
        queue.value.data.flatMap((client) => (client.managerId === undefined ? [] : [client.managerId])),
      ),
    ];
    const names = options.managerNames === undefined ? {} : await options.managerNames(managerIds);
    sendPage(
      res,
      200,
      queuePage(contextOf(req, res), queue.value, filters, pageNotice(req), now(), (id) =>
        Object.hasOwn(names, id) ? (names[id] as string) : id,
      ),
    );
  });

  router.get('/clients/:clientId', async (req, res) => {
    const principal = reviewerPrincipal(reviewerOfRequest(req, res));
    const clientId = clientIdOf(req);
    const auditCursor = single(req.query.auditCursor);
    const client = await kit.review.get(principal, clientId);
    if (client.isErr()) return failPage(req, res, 404, problemText(client.error));
    const [history, audit] = await Promise.all([
      kit.review.statusHistory(principal, clientId),
      kit.audit.list(principal, clientId, {
        limit: AUDIT_PAGE_SIZE,
        ...(auditCursor && { cursor: auditCursor }),
      }),
    ]);
    if (history.isErr()) return failPage(req, res, 503, problemText(history.error));
    if (audit.isErr()) return failPage(req, res, 400, problemText(audit.error));
    sendPage(
      res,
      200,
      clientPage(contextOf(req, res), client.value, history.value, audit.value, pageNotice(req)),
    );
  });

  // Every write: a bounded form body, and the CSRF token of a page rendered for this reviewer.
  router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 }));
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!csrf.verify(reviewerOfRequest(req, res).id, body._csrf)) {
      return failPage(req, res, 403, 'This form has expired or was not made for you: open the page again.');
    }
    if (typeof body._idempotencyKey !== 'string' || !/^[0-9a-f-]{36}$/.test(body._idempotencyKey)) {
      return failPage(req, res, 400, 'The form is incomplete: open the page again.');
    }
    next();
  });

  /** The form's own fields, without the guards: what the action's key fingerprints. */
  const fieldsOf = (req: Request): Record<string, string> => {
    const { _csrf: _token, _idempotencyKey: _key, ...fields } = req.body as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  };

  /** A client version as `clientVersion` writes it (SHA-256, hex). */
  const isVersion = (value: string | undefined): value is string =>
    value !== undefined && /^[0-9a-f]{64}$/.test(value);

  /**
   * Runs the form's action once per its form's key, then redirects to `after` with what came of it.
   * An action that decides on what its page showed refuses a form without the client's version
   * (400: checked always, never skipped) and hands the version to the kit's command, which compares
   * it with the client it locks.
   */
  const action =
    (
      declared: FormAction,
      done: string,
      run: (
        req: Request,
        res: Response,
        fields: Record<string, string>,
      ) => (
        context: Parameters<Parameters<typeof runConsoleAction>[3]>[0],
      ) => ResultAsync<unknown, DomainError>,
      after: (req: Request, value: unknown) => string,
    ) =>
    async (req: Request, res: Response) => {
      const fields = fieldsOf(req);
      const seen = fields[SEEN_FIELD];
      if (declared.decidesOnWhatWasSeen && !isVersion(seen)) {
        return failPage(req, res, 400, 'The form is incomplete: open the page again.');
      }
      const outcome: ActionOutcome = await runConsoleAction(
        kit,
        reviewerOfRequest(req, res),
        { route: actionPath(declared.path, req.params), key: String(req.body._idempotencyKey), body: fields },
        run(req, res, fields),
        declared.decidesOnWhatWasSeen ? seen : undefined,
      );
      const base = req.baseUrl;
      if (outcome.type === 'InProgress')
        return res.redirect(303, `${base}${after(req, null)}?notice=in-progress`);
      if (outcome.type === 'Stale')
        return failPage(
          req,
          res,
          409,
          'The client changed after this page was opened: nothing was done. Open it again and review what changed.',
        );
      if (outcome.type === 'Refused') {
        if (outcome.error.type === 'ValidationFailed')
          return failPage(req, res, 400, problemText(outcome.error));
        return res.redirect(303, `${base}${after(req, null)}?problem=${outcome.error.type}`);
      }
      const target = after(req, outcome.value);
      return res.redirect(303, `${base}${target}${target.includes('?') ? '&' : '?'}notice=${done}`);
    };

  const principalOf = (res: Response) => reviewerPrincipal(res.locals.reviewer as Reviewer);
  const clientIdOf = (req: Request): string => String(req.params.clientId ?? '');
  const clientPath = (req: Request) => `/clients/${clientIdOf(req)}`;

  router.post(
    formActions.assignNext.path,
    action(
      formActions.assignNext,
      'assigned',
      (_req, res) => (context) => kit.review.assignNext(principalOf(res), undefined, context),
      (_req, value) => {
        const client = (value as { client?: Client | null } | null)?.client;
        return client ? `/clients/${client.id}` : '/?notice=none-waiting';
      },
    ),
  );
  router.post(
    formActions.assign.path,
    action(
      formActions.assign,
      'assigned',
      (req, res) => (context) => kit.review.assign(principalOf(res), clientIdOf(req), context),
      (req) => (req.body.returnTo === 'queue' ? '/' : clientPath(req)),
    ),
  );
  router.post(
    formActions.release.path,
    action(
      formActions.release,
      'released',
      (req, res) => (context) => kit.review.release(principalOf(res), clientIdOf(req), context),
      clientPath,
    ),
  );
  router.post(
    formActions.approve.path,
    action(
      formActions.approve,
      'approved',
      (req, res) => (context) => kit.compliance.approve(principalOf(res), clientIdOf(req), context),
      clientPath,
    ),
  );
  router.post(
    formActions.requestResubmission.path,
    action(
      formActions.requestResubmission,
      'resubmission-requested',
      (req, res, fields) => (context) => {
        const requirements = [0, 1, 2]
          .map((row) => ({
            field: fields[`field${row}`] ?? '',
            code: fields[`code${row}`] ?? 'OTHER',
            message: fields[`message${row}`] ?? '',
          }))
          .filter((requirement) => requirement.field !== '');
        return kit.compliance.requestResubmission(
          principalOf(res),
          clientIdOf(req),
          { reason: fields.reason ?? '', ...(requirements.length > 0 && { requirements }) },
          context,
        );
      },
      clientPath,
    ),
  );
  router.post(
    formActions.markTermsSigned.path,
    action(
      formActions.markTermsSigned,
      'terms-signed',
      (req, res, fields) => (context) =>
        kit.compliance.markTermsSigned(
          principalOf(res),
          clientIdOf(req),
          {
            termsVersion: fields.termsVersion ?? '',
            signedAt: fields.signedAt ?? '',
            signatoryName: fields.signatoryName ?? '',
            ipAddress: fields.ipAddress || null,
            userAgent: fields.userAgent || null,
          },
          context,
        ),
      clientPath,
    ),
  );
  router.post(
    formActions.delete.path,
    action(
      formActions.delete,
      'deleted',
      (req, res) => (context) => kit.review.delete(principalOf(res), clientIdOf(req), context),
      clientPath,
    ),
  );
  router.post(
    formActions.redact.path,
    action(
      formActions.redact,
      'redacted',
      (req, res) => (context) => kit.redaction.redact(principalOf(res), clientIdOf(req), context),
      clientPath,
    ),
  );
  router.post(
    formActions.resolveHit.path,
    action(
      formActions.resolveHit,
      'hit-resolved',
      (req, res, fields) => (context) =>
        kit.screening.resolveHit(
          principalOf(res),
          clientIdOf(req),
          String(req.params.hitId ?? ''),
          { decision: fields.decision ?? '', reason: fields.reason ?? '' },
          context,
        ),
      clientPath,
    ),
  );

  // Opening a document issues a presigned link (audited, as every link is) and shows it inline.
  router.post('/clients/:clientId/documents/open', async (req, res) => {
    const key = fieldsOf(req).key ?? '';
    const links = await kit.documents.requestClientDownloadBatch(principalOf(res), clientIdOf(req), {
      filenames: [key],
    });
    if (links.isErr())
      return failPage(
        req,
        res,
        links.error.type === 'ValidationFailed' ? 400 : 404,
        problemText(links.error),
      );
    const link = links.value.downloads[0];
    if (link === undefined) return failPage(req, res, 404, 'No such document.');
    try {
      await sendDocument(res, fetchDocument, link.downloadUrl, key.slice(key.indexOf('_') + 1));
    } catch {
      if (!res.headersSent) failPage(req, res, 502, 'The document could not be read from storage.');
      else res.destroy();
    }
  });

  return router;
};
