import {
  clientVersion,
  createOnboardingKit,
  demoIdentities,
  exampleIndividualPayload,
  principalKey,
} from '@onboarding-kit/core';
import { fingerprintRequestBody } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import express from 'express';
import { ResultAsync } from 'neverthrow';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { actionPath, formActions, formTarget } from '../src/form-actions.js';
import { CONSOLE_CONTENT_SECURITY_POLICY, createReviewConsole } from '../src/index.js';
import { exampleListScreening } from './browser/list-screening.js';

/** A host: its own staff login (a header it sets in a test) in front of the console at /review. */
const host = async (readOnly = false) => {
  const adapters = createMemoryAdapters();
  const kit = createOnboardingKit(adapters);
  const manager = demoIdentities.managerA.principal;
  adapters.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(16).fill(1));
  const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
  const app = express();
  app.use('/review', (req, res, next) => {
    if (req.get('x-test-staff') !== 'alice') {
      res.status(401).send('log in');
      return;
    }
    res.locals.staff = { id: 'alice', name: 'Alice' };
    next();
  });
  app.use(
    '/review',
    createReviewConsole({ kit, reviewerOf: (_req) => ({ id: 'alice', name: 'Alice' }), readOnly }),
  );
  return { app, kit, client, adapters };
};

const formFields = (page: string, action: string): Record<string, string> => {
  const form = page.slice(page.indexOf(`action="${action}"`));
  const value = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(form)?.[1] ?? '';
  const seen = value('_seen');
  return { _csrf: value('_csrf'), _idempotencyKey: value('_idempotencyKey'), ...(seen && { _seen: seen }) };
};

describe('review console over HTTP (memory kit, real Express)', () => {
  it("shows a hit's birth-date evidence beside the name's: the client's date, the listed ones, the outcome", async () => {
    const adapters = createMemoryAdapters({ screening: await exampleListScreening() });
    const kit = createOnboardingKit(adapters);
    const manager = demoIdentities.managerA.principal;
    adapters.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(16).fill(1));
    const payload = exampleIndividualPayload();
    // The listed Camille DURAND is born 1979-02-03: an exact name is a hit whatever the date.
    const client = (
      await kit.clients.createIndividual(manager, {
        ...payload,
        profile: { ...payload.profile, dateOfBirth: '1990-05-06' },
      })
    )._unsafeUnwrap();
    await adapters.testing.screenDueClients(kit);
    const app = express();
    app.use('/review', createReviewConsole({ kit, reviewerOf: () => ({ id: 'alice', name: 'Alice' }) }));
    const page = (await request(app).get(`/review/clients/${client.id}`)).text;
    const hit = page.slice(page.indexOf('<article class="hit"'));
    expect(hit).toContain('<dt>Birth Date</dt>');
    expect(hit).toContain('1990-05-06');
    expect(hit).toContain('1979-02-03');
    expect(hit).toContain('MISMATCH');
    expect(hit).toContain('birth date 1990-05-06 is more than a year from every birth date of the entry');
  });

  it('answers only behind the host login, with a strict policy and no-store', async () => {
    const { app, client } = await host();
    expect((await request(app).get('/review/')).status).toBe(401);
    const queue = await request(app).get('/review/').set('x-test-staff', 'alice');
    expect(queue.status).toBe(200);
    expect(queue.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(queue.headers['cache-control']).toBe('no-store');
    expect(queue.text).toContain(`/review/clients/${client.id}`);
    expect(queue.text).not.toMatch(/<script>|onclick=|style="/);
  });

  it("shows only its own notices and an error type's name from a link's query, nothing a link writes", async () => {
    const { app, client } = await host();
    const page = async (query: string) =>
      (await request(app).get(`/review/clients/${client.id}?${query}`).set('x-test-staff', 'alice')).text;
    expect(await page('notice=approved')).toContain('Approved: the client now signs the terms.');
    expect(await page('problem=InvalidStatus')).toContain('Refused (InvalidStatus).');
    // Names every object has (its prototype's) are no notice of the console's.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const shown = await page(`notice=${name}`);
      expect(shown).not.toMatch(/function|native code|\[object/);
      expect(shown).not.toContain('role="status"');
    }
    // A link cannot make the console say what it likes: not an error type's name, no notice.
    for (const text of ['Please call +1 555 0100 to unlock', 'wire the fee now', 'A'.repeat(80)]) {
      expect(await page(`problem=${encodeURIComponent(text)}`)).not.toContain('role="alert"');
    }
  });

  it('assigns, refuses a form without its CSRF token, and acts once for a double submission', async () => {
    const { app, kit, client } = await host();
    const page = (await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).text;
    const guards = formFields(page, `/review/clients/${client.id}/assign`);
    const forged = await request(app)
      .post(`/review/clients/${client.id}/assign`)
      .set('x-test-staff', 'alice')
      .type('form')
      .send({ _csrf: 'x', _idempotencyKey: guards._idempotencyKey });
    expect(forged.status).toBe(403);
    const send = () =>
      request(app)
        .post(`/review/clients/${client.id}/assign`)
        .set('x-test-staff', 'alice')
        .type('form')
        .send(guards);
    const [first, second] = await Promise.all([send(), send()]);
    expect([first.status, second.status]).toEqual([303, 303]);
    const trail = (
      await kit.audit.list({ kind: 'compliance', complianceId: 'alice' }, client.id, {})
    )._unsafeUnwrap();
    expect(trail.data.filter((entry: { action: string }) => entry.action === 'assign')).toHaveLength(1);
    expect(
      (await kit.review.get({ kind: 'compliance', complianceId: 'alice' }, client.id))._unsafeUnwrap()
        .assignee?.complianceId,
    ).toBe('alice');
  });

  it('requests a resubmission with a requirement picked from the payload', async () => {
    const { app, kit, client } = await host();
    const page = (await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).text;
    expect(page).toContain('value="profile.idDocuments[0]"');
    const guards = formFields(page, `/review/clients/${client.id}/request-resubmission`);
    const answer = await request(app)
      .post(`/review/clients/${client.id}/request-resubmission`)
      .set('x-test-staff', 'alice')
      .type('form')
      .send({
        ...guards,
        reason: 'Passport unreadable',
        field0: 'profile.idDocuments[0]',
        code0: 'DOCUMENT_UNREADABLE',
        message0: 'Blurred',
      });
    expect(answer.status).toBe(303);
    const stored = (
      await kit.review.get({ kind: 'compliance', complianceId: 'alice' }, client.id)
    )._unsafeUnwrap();
    expect(stored.status).toBe('RESUBMISSION_REQUIRED');
    expect(stored.resubmissionRequirements).toEqual([
      { field: 'profile.idDocuments[0]', code: 'DOCUMENT_UNREADABLE', message: 'Blurred' },
    ]);
  });

  it("a decision form's record keeps no digest of its reason once the client is redacted, and its key replays", async () => {
    const { app, kit, client, adapters } = await host();
    const page = (await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).text;
    const guards = formFields(page, `/review/clients/${client.id}/request-resubmission`);
    const marker = `canary-${crypto.randomUUID()}`;
    const fields = { reason: `Camille Durand is not ${marker}` };
    const post = (sent: Record<string, string>) =>
      request(app)
        .post(`/review/clients/${client.id}/request-resubmission`)
        .set('x-test-staff', 'alice')
        .type('form')
        .send({ ...guards, ...sent });
    const asked = await post(fields);
    expect(asked.status).toBe(303);
    expect(asked.headers.location).not.toContain('problem=');
    // What the form's key fingerprints: its fields without the guards.
    const { _csrf: _token, _idempotencyKey: _key, ...seen } = guards;
    const digest = fingerprintRequestBody({ ...seen, ...fields })._unsafeUnwrap();
    expect(adapters.testing.dump()).toContain(digest);

    (await kit.clients.delete(demoIdentities.managerA.principal, client.id))._unsafeUnwrap();
    (await kit.redaction.redact({ kind: 'compliance', complianceId: 'alice' }, client.id))._unsafeUnwrap();
    const dump = adapters.testing.dump();
    expect(dump).not.toContain(digest);
    expect(dump).not.toContain(marker);
    // The same form again, with its reason or another: the recorded outcome, not a refusal.
    for (const sent of [fields, { reason: 'Another reason' }]) {
      const again = await post(sent);
      expect(again.status).toBe(303);
      expect(again.headers.location).toBe(asked.headers.location);
    }
  });

  it('a stale form: an approval posted from a page opened before a resubmission is refused, and nothing moves', async () => {
    const { app, kit, client, adapters } = await host();
    const alice = { kind: 'compliance' as const, complianceId: 'alice' };
    const page = (await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).text;
    const approveForm = formFields(page, `/review/clients/${client.id}/approve`);
    // Meanwhile another reviewer asks for a resubmission and the manager sends other data.
    (
      await kit.compliance.requestResubmission({ kind: 'compliance', complianceId: 'bob' }, client.id, {
        reason: 'Another passport',
      })
    )._unsafeUnwrap();
    const manager = demoIdentities.managerA.principal;
    adapters.testing.putTemporaryFile(principalKey(manager), 'passport-2.pdf', new Uint8Array(16).fill(2));
    const payload = exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] });
    (
      await kit.clients.resubmitIndividual(manager, client.id, {
        ...payload,
        profile: { ...payload.profile, lastName: 'Someone-Else' },
      })
    )._unsafeUnwrap();
    const stale = await request(app)
      .post(`/review/clients/${client.id}/approve`)
      .set('x-test-staff', 'alice')
      .type('form')
      .send(approveForm);
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('The client changed after this page was opened');
    expect(approveForm._seen).toBe(clientVersion(client));
    const stored = (await kit.review.get(alice, client.id))._unsafeUnwrap();
    expect(stored.status).toBe('ONBOARDING_UNDER_REVIEW');
    expect(stored.individualProfile?.lastName).toBe('Someone-Else');
    // The page opened afresh approves what it shows.
    const fresh = (await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).text;
    const approved = await request(app)
      .post(`/review/clients/${client.id}/approve`)
      .set('x-test-staff', 'alice')
      .type('form')
      .send(formFields(fresh, `/review/clients/${client.id}/approve`));
    expect(approved.status).toBe(303);
    expect((await kit.review.get(alice, client.id))._unsafeUnwrap().status).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );
  });

  it('a change that commits between the page and the command (after any read the console could make) is 409, and the form key is released', async () => {
    const adapters = createMemoryAdapters();
    const kit = createOnboardingKit(adapters);
    const manager = demoIdentities.managerA.principal;
    const bob = { kind: 'compliance' as const, complianceId: 'bob' };
    adapters.testing.putTemporaryFile(principalKey(manager), 'passport.pdf', new Uint8Array(16).fill(1));
    const client = (await kit.clients.createIndividual(manager, exampleIndividualPayload()))._unsafeUnwrap();
    // The resubmission lands at the last moment: inside the approval call, before its transaction.
    let meanwhile: (() => Promise<void>) | undefined = async () => {
      (
        await kit.compliance.requestResubmission(bob, client.id, { reason: 'Another passport' })
      )._unsafeUnwrap();
      adapters.testing.putTemporaryFile(principalKey(manager), 'passport-2.pdf', new Uint8Array(16).fill(2));
      (
        await kit.clients.resubmitIndividual(
          manager,
          client.id,
          exampleIndividualPayload({ idDocuments: ['passport-2.pdf'] }),
        )
      )._unsafeUnwrap();
    };
    const racingKit: typeof kit = {
      ...kit,
      compliance: {
        ...kit.compliance,
        approve: (principal, clientId, context) => {
          const change = meanwhile ?? (async () => undefined);
          meanwhile = undefined;
          return ResultAsync.fromSafePromise(change()).andThen(() =>
            kit.compliance.approve(principal, clientId, context),
          );
        },
      },
    };
    const app = express();
    app.use('/review', createReviewConsole({ kit: racingKit, reviewerOf: () => ({ id: 'alice' }) }));
    const approvePath = `/review/clients/${client.id}/approve`;
    const page = (await request(app).get(`/review/clients/${client.id}`)).text;
    const staleForm = formFields(page, approvePath);

    const stale = await request(app).post(approvePath).type('form').send(staleForm);
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('The client changed after this page was opened');
    const alice = { kind: 'compliance' as const, complianceId: 'alice' };
    expect((await kit.review.get(alice, client.id))._unsafeUnwrap().status).toBe('ONBOARDING_UNDER_REVIEW');
    const trail = (await kit.audit.list(alice, client.id, { limit: 100 }))._unsafeUnwrap().data;
    expect(trail.map((entry: { action: string }) => entry.action)).toEqual([
      'create',
      'request-resubmission',
      'resubmit',
    ]);
    // A retry of the same form (a day later or now) runs again and is refused again: never replayed as done.
    expect((await request(app).post(approvePath).type('form').send(staleForm)).status).toBe(409);
    // The key was released, not recorded: the page opened afresh, sent under the same key, approves.
    const fresh = formFields((await request(app).get(`/review/clients/${client.id}`)).text, approvePath);
    const approved = await request(app)
      .post(approvePath)
      .type('form')
      .send({ ...fresh, _idempotencyKey: staleForm._idempotencyKey });
    expect(approved.status).toBe(303);
    expect(approved.headers.location).toContain('notice=approved');
    expect((await kit.review.get(alice, client.id))._unsafeUnwrap().status).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );
  });

  it("every action that decides on what its page showed: 400 without the client's version, 409 with another, nothing done", async () => {
    const { app, kit, client } = await host();
    const alice = { kind: 'compliance' as const, complianceId: 'alice' };
    const page = (await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).text;
    const { _csrf } = formFields(page, `/review/clients/${client.id}/approve`);
    const trail = async () => (await kit.audit.list(alice, client.id, { limit: 100 }))._unsafeUnwrap().data;
    const before = { client: (await kit.review.get(alice, client.id))._unsafeUnwrap(), trail: await trail() };
    const deciding = Object.values(formActions).filter((action) => action.decidesOnWhatWasSeen);
    expect(deciding.length).toBe(8);
    for (const action of deciding) {
      const path = `/review${actionPath(action.path, { clientId: client.id, hitId: crypto.randomUUID() })}`;
      const post = (fields: Record<string, string>) =>
        request(app)
          .post(path)
          .set('x-test-staff', 'alice')
          .type('form')
          .send({
            _csrf,
            _idempotencyKey: crypto.randomUUID(),
            // What each form's own fields would hold, so that only the version can refuse it.
            reason: 'r',
            decision: 'DISMISSED',
            termsVersion: 'v1',
            signedAt: new Date().toISOString(),
            signatoryName: 'Camille Durand',
            ...fields,
          });
      expect((await post({})).status, `${path} without _seen`).toBe(400);
      expect((await post({ _seen: 'not-a-version' })).status, `${path} with a malformed _seen`).toBe(400);
      expect((await post({ _seen: 'f'.repeat(64) })).status, `${path} with another version`).toBe(409);
    }
    expect({
      client: (await kit.review.get(alice, client.id))._unsafeUnwrap(),
      trail: await trail(),
    }).toEqual(before);
    // The forms the pages build carry the version: they cannot leave it out.
    expect(formTarget(formActions.approve, { clientId: client.id }, client).seenVersion).toBe(
      clientVersion(client),
    );
    // @ts-expect-error an action that decides on what was seen needs the client its page shows
    formTarget(formActions.approve, { clientId: client.id });
    expect(formTarget(formActions.assignNext, {}).seenVersion).toBeUndefined();
  });

  it('read-only: every page, and 405 on every write', async () => {
    const { app, client } = await host(true);
    expect((await request(app).get(`/review/clients/${client.id}`).set('x-test-staff', 'alice')).status).toBe(
      200,
    );
    const write = await request(app)
      .post(`/review/clients/${client.id}/approve`)
      .set('x-test-staff', 'alice');
    expect(write.status).toBe(405);
  });
});
