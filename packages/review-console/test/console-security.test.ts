import {
  createOnboardingKit,
  demoIdentities,
  exampleIndividualPayload,
  type OnboardingKit,
  principalKey,
} from '@onboarding-kit/core';
import { createMemoryAdapters, type MemoryAdapters } from '@onboarding-kit/memory';
import express, { type Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY, createReviewConsole, type Reviewer } from '../src/index.js';
import { exampleListScreening } from './browser/list-screening.js';

/**
 * The security list of the console, over HTTP against a real Express host: CSRF on every form, a
 * strict policy without inline script, no personal data in a URL, no-store, read-only 405, and
 * the reviewer only ever the one the host's login named.
 */
const alice = { kind: 'compliance', complianceId: 'alice' } as const;
const manager = demoIdentities.managerA.principal;
const pdf = new TextEncoder().encode('%PDF-1.4 specimen');

type Host = { readonly app: Express; readonly kit: OnboardingKit };

/** The host: its own login (a header of its own, in this test) names the reviewer, or nobody. */
const host = (kit: OnboardingKit, options: { readOnly?: boolean; namesNobody?: boolean } = {}): Host => {
  const app = express();
  app.use('/review', (req, res, next) => {
    const staff = req.get('x-test-staff');
    if (staff !== 'alice' && staff !== 'bob') {
      res.status(401).send('log in');
      return;
    }
    res.locals.staff = { id: staff, name: staff };
    next();
  });
  app.use(
    '/review',
    createReviewConsole({
      kit,
      reviewerOf: (req) => (options.namesNobody ? undefined : (req.res?.locals.staff as Reviewer)),
      csrfSecret: 'a secret shared by the test hosts',
      ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
      fetchDocument: (async () =>
        new Response(pdf, { headers: { 'content-length': String(pdf.length) } })) as typeof fetch,
    }),
  );
  return { app, kit };
};

let adapters: MemoryAdapters;
let kit: OnboardingKit;
let clients: { underReview: string; waitingForTerms: string; deleted: string };
let personal: string[];

beforeAll(async () => {
  adapters = createMemoryAdapters({ screening: await exampleListScreening() });
  kit = createOnboardingKit(adapters);
  const create = async () => {
    adapters.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', pdf);
    return (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
  };
  const [underReview, waiting, deleted] = [await create(), await create(), await create()];
  await adapters.testing.screenDueClients(kit);
  const screened = (await kit.review.get(alice, waiting.id))._unsafeUnwrap();
  for (const hit of screened.screening?.hits ?? []) {
    (
      await kit.screening.resolveHit(alice, waiting.id, hit.id, { decision: 'DISMISSED', reason: 'other' })
    )._unsafeUnwrap();
  }
  (await kit.compliance.approve(alice, waiting.id))._unsafeUnwrap();
  (await kit.review.delete(alice, deleted.id))._unsafeUnwrap();
  clients = { underReview: underReview.id, waitingForTerms: waiting.id, deleted: deleted.id };
  const profile = underReview.individualProfile;
  personal = [
    profile?.firstName,
    profile?.lastName,
    profile?.email,
    profile?.address,
    'passport',
    ...(profile?.idDocuments ?? []),
  ].filter((text): text is string => typeof text === 'string');
});

const get = (app: Express, path: string, staff = 'alice') =>
  request(app).get(path).set('x-test-staff', staff);

/** Every page a reviewer sees: the queue, and a client's page in each state with its own forms. */
const pages = async (app: Express) => {
  const paths = [
    '/review/',
    `/review/clients/${clients.underReview}`,
    `/review/clients/${clients.waitingForTerms}`,
    `/review/clients/${clients.deleted}`,
  ];
  return Promise.all(
    paths.map(async (path) => {
      const answer = await get(app, path);
      expect(answer.status, path).toBe(200);
      return { path, answer, markup: answer.text };
    }),
  );
};

/** The POST forms of a page: their action and their markup. */
const postForms = (markup: string) =>
  [...markup.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map((form) => ({
    action: form[1] as string,
    body: form[2] as string,
  }));

const fieldsOf = (body: string): Record<string, string> =>
  Object.fromEntries(
    [...body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );

/** What an action could change: the clients and their trails. */
const snapshot = async () =>
  JSON.stringify(
    await Promise.all(
      Object.values(clients).map(async (id) => [
        (await kit.review.get(alice, id))._unsafeUnwrap(),
        // Opening a document issues an audited link, which is no change of the client.
        (await kit.audit.list(alice, id, { limit: '100' }))
          ._unsafeUnwrap()
          .data.filter((entry) => entry.action !== 'download-links-issued').length,
      ]),
    ),
  );

describe('the review console is safe by default', () => {
  it('every form carries a CSRF token and a fresh Idempotency-Key; a POST without, or with another reviewer’s token, is refused and changes nothing', async () => {
    const { app } = host(kit);
    const forms = (await pages(app)).flatMap(({ markup }) => postForms(markup));
    const actions = new Set(forms.map((form) => form.action.replace(/[0-9a-f-]{36}/g, ':id')));
    // The pages together hold every kind of action the console has.
    expect([...actions].sort()).toEqual(
      [
        '/review/assign-next',
        '/review/clients/:id/assign',
        '/review/clients/:id/approve',
        '/review/clients/:id/request-resubmission',
        '/review/clients/:id/terms-signed',
        '/review/clients/:id/delete',
        '/review/clients/:id/redact',
        '/review/clients/:id/screening-hits/:id/resolve',
        '/review/clients/:id/documents/open',
      ].sort(),
    );
    const keys = new Set<string>();
    const before = await snapshot();
    const bobsPage = (await get(app, '/review/', 'bob')).text;
    const bobsToken = fieldsOf(postForms(bobsPage)[0]?.body ?? '')._csrf;
    expect(bobsToken).toMatch(/^\d+\./);
    for (const form of forms) {
      const fields = fieldsOf(form.body);
      expect(fields._csrf, form.action).toMatch(/^\d+\.[A-Za-z0-9_-]+$/);
      expect(fields._idempotencyKey, form.action).toMatch(/^[0-9a-f-]{36}$/);
      keys.add(fields._idempotencyKey as string);
      for (const token of [undefined, '', 'forged', bobsToken]) {
        const sent = { ...fields, ...(token === undefined ? { _csrf: undefined } : { _csrf: token }) };
        const answer = await request(app)
          .post(form.action)
          .set('x-test-staff', 'alice')
          .type('form')
          .send(Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined)));
        expect(answer.status, `${form.action} with ${token}`).toBe(403);
      }
    }
    expect(keys.size, 'one key per rendered form').toBe(forms.length);
    expect(await snapshot()).toBe(before);
  });

  it('a strict policy, no inline script, style or handler; no-store on every answer, errors and documents too', async () => {
    const { app } = host(kit);
    for (const { path, answer, markup } of await pages(app)) {
      expect(answer.headers['content-security-policy'], path).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
      expect(answer.headers['cache-control'], path).toBe('no-store');
      expect(answer.headers['x-frame-options'], path).toBe('DENY');
      expect(markup, path).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(markup, path).not.toMatch(/\son[a-z]+=|\sstyle=|javascript:/i);
      expect(markup.match(/<script [^>]*>/g), path).toEqual([
        expect.stringMatching(/src="\/review\/assets\/console\.js"/),
      ]);
    }
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    const unknown = await get(app, '/review/clients/00000000-0000-4000-8000-000000000000');
    const forged = await request(app)
      .post(`/review/clients/${clients.underReview}/approve`)
      .set('x-test-staff', 'alice');
    const client = (await get(app, `/review/clients/${clients.underReview}`)).text;
    const open = postForms(client).find((form) => form.action.endsWith('/documents/open'));
    const document = await request(app)
      .post(open?.action ?? '')
      .set('x-test-staff', 'alice')
      .type('form')
      .send(fieldsOf(open?.body ?? ''));
    expect(document.status).toBe(200);
    expect(document.headers['content-type']).toBe('application/pdf');
    for (const answer of [unknown, forged, document]) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'/);
    }
    expect([unknown.status, forged.status]).toEqual([404, 403]);
  });

  it('no personal data in any URL: links, form actions, and the redirects after actions', async () => {
    const { app } = host(kit);
    const urls: string[] = [];
    for (const { markup } of await pages(app)) {
      urls.push(...[...markup.matchAll(/\s(?:href|action|src)="([^"]*)"/g)].map((m) => m[1] as string));
    }
    const client = (await get(app, `/review/clients/${clients.underReview}`)).text;
    const assign = postForms(client).find((form) => form.action.endsWith('/assign'));
    const assigned = await request(app)
      .post(assign?.action ?? '')
      .set('x-test-staff', 'alice')
      .type('form')
      .send(fieldsOf(assign?.body ?? ''));
    expect(assigned.status).toBe(303);
    urls.push(assigned.headers.location as string);
    expect(urls.length).toBeGreaterThan(10);
    for (const url of urls) {
      for (const text of personal)
        expect(decodeURIComponent(url).toLowerCase(), url).not.toContain(text.toLowerCase());
    }
  });

  it('read-only: every page, every action answers 405 (documents still open: reading is not a write)', async () => {
    const readWrite = host(kit);
    const readOnly = host(kit, { readOnly: true });
    const before = await snapshot();
    for (const { path, markup } of await pages(readOnly.app)) {
      for (const form of postForms(markup)) {
        if (form.action.endsWith('/documents/open')) continue;
        expect(form.body, `${path} ${form.action}`).toMatch(/<button type="submit" disabled/);
      }
    }
    for (const { markup } of await pages(readWrite.app)) {
      for (const form of postForms(markup)) {
        const answer = await request(readOnly.app)
          .post(form.action)
          .set('x-test-staff', 'alice')
          .type('form')
          .send(fieldsOf(form.body));
        if (form.action.endsWith('/documents/open')) {
          expect(answer.status, form.action).toBe(200);
        } else {
          expect(answer.status, form.action).toBe(405);
          expect(answer.headers.allow).toBe('GET, HEAD');
        }
      }
    }
    for (const method of ['put', 'patch', 'delete'] as const) {
      expect(
        (
          await request(readOnly.app)
            [method](`/review/clients/${clients.underReview}`)
            .set('x-test-staff', 'alice')
        ).status,
      ).toBe(405);
    }
    expect(await snapshot()).toBe(before);
  });

  it('the reviewer is only ever the one the host named: headers claiming another change nothing', async () => {
    const { app } = host(kit);
    const claims = {
      'x-reviewer': 'mallory',
      'x-forwarded-user': 'mallory',
      'x-remote-user': 'mallory',
      'remote-user': 'mallory',
      'x-compliance-id': 'mallory',
      'x-user-id': 'mallory',
    };
    const page = await get(app, `/review/clients/${clients.underReview}`).set(claims);
    expect(page.text).toContain('Reviewer: <strong>alice</strong>');
    expect(page.text).not.toContain('mallory');
    // Assigned to alice by an earlier test, or not: the one assignment form the page holds.
    const form = postForms(page.text).find((each) => /\/(assign|release)$/.test(each.action));
    const action = form?.action.endsWith('/release') ? 'release' : 'assign';
    const answer = await request(app)
      .post(form?.action ?? '')
      .set('x-test-staff', 'alice')
      .set(claims)
      .type('form')
      .send(fieldsOf(form?.body ?? ''));
    expect(answer.status).toBe(303);
    const trail = (await kit.audit.list(alice, clients.underReview, { limit: '100' }))._unsafeUnwrap().data;
    expect(trail.filter((entry) => entry.actor.id === 'mallory')).toEqual([]);
    expect(trail.findLast((entry) => entry.action === action)?.actor).toEqual({
      kind: 'compliance',
      id: 'alice',
    });

    // A host whose login let a request through without naming a reviewer: 403 everywhere.
    const nobody = host(kit, { namesNobody: true });
    for (const answer of [
      await get(nobody.app, '/review/').set(claims),
      await get(nobody.app, `/review/clients/${clients.underReview}`).set(claims),
      await get(nobody.app, '/review/assets/console.js').set(claims),
      await request(nobody.app).post('/review/assign-next').set('x-test-staff', 'alice').set(claims),
    ]) {
      expect(answer.status).toBe(403);
    }
  });
});
