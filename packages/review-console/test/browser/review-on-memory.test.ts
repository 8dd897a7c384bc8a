import { randomUUID } from 'node:crypto';
import { createOnboardingKit } from '@onboarding-kit/core';
import { createSignedLinkRouter } from '@onboarding-kit/express';
import { createMemoryAdapters } from '@onboarding-kit/memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, loggedInContext } from './browser-session.js';
import { type ListeningApp, listeningApp, managerUploads, mountConsole, staff } from './console-host.js';
import { exampleListScreening } from './list-screening.js';
import {
  entityCase,
  expectSafeTraffic,
  individualCase,
  type ReviewBackend,
  renderSpecimens,
  reviewInBrowser,
  type SpecimenDocuments,
  submitClient,
} from './review-flow.js';

let browser: Browser;
let host: ListeningApp;
let backend: ReviewBackend;
let documents: SpecimenDocuments;

beforeAll(async () => {
  browser = await launchChromium();
  try {
    host = await listeningApp();
    const adapters = createMemoryAdapters({
      publicBaseUrl: `${host.origin}/storage`,
      screening: await exampleListScreening(),
    });
    const kit = createOnboardingKit(adapters);
    host.app.use('/storage', createSignedLinkRouter(adapters.signedLinks));
    const manager = { kind: 'manager', managerId: randomUUID() } as const;
    mountConsole(host.app, kit, { [manager.managerId]: 'Morgan Manager' });
    backend = {
      name: 'memory',
      origin: host.origin,
      kit,
      manager,
      upload: managerUploads(kit, manager),
      screened: async () => {
        await adapters.testing.screenDueClients(kit);
      },
    };
    documents = await renderSpecimens(browser);
  } catch (error) {
    await browser.close();
    throw error;
  }
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

const alice = { username: 'alice', password: staff.alice.password };

describe('the review console in Chromium, on the memory kit', () => {
  it('reviews an individual by keyboard only, from the queue to verified', async () => {
    const { context, observed } = await loggedInContext(browser, alice);
    try {
      const page = await context.newPage();
      await reviewInBrowser(page, backend, individualCase, documents, {
        screenshots: 'individual',
        keyboardOnly: true,
      });
      expectSafeTraffic(observed, [
        'Camille',
        'Durand',
        'passport',
        'proof-of-address',
        'unreadable',
        'blurred',
      ]);
    } finally {
      await context.close();
    }
  });

  it('reviews an entity with the mouse, from the queue to verified', async () => {
    const { context, observed } = await loggedInContext(browser, alice);
    try {
      const page = await context.newPage();
      const verified = await reviewInBrowser(page, backend, entityCase, documents, { screenshots: 'entity' });
      expectSafeTraffic(observed, ['Boulangerie', 'Hélène', 'incorporation', 'unreadable', 'blurred']);
      const trail = (
        await backend.kit.audit.list({ kind: 'compliance', complianceId: 'alice' }, verified.id, {
          limit: '100',
        })
      )._unsafeUnwrap();
      expect(
        new Set(trail.data.filter((entry) => entry.actor.id === 'alice').map((entry) => entry.action)),
      ).toEqual(
        new Set([
          'assign',
          'screening-resolution',
          'request-resubmission',
          'approve',
          'terms-signed',
          'download-links-issued',
        ]),
      );
    } finally {
      await context.close();
    }
  });

  it('acts once for a double submission: the button disables, and a replayed form answers the first outcome', async () => {
    const compliance = { kind: 'compliance', complianceId: 'alice' } as const;
    const requests = async (clientId: string) =>
      (await backend.kit.audit.list(compliance, clientId, { limit: '100' }))
        ._unsafeUnwrap()
        .data.filter((entry) => entry.action === 'request-resubmission').length;
    const askResubmission = async (page: import('playwright-core').Page, clientId: string) => {
      await page.goto(`${backend.origin}/review/clients/${clientId}`);
      await page.getByText('Request a resubmission', { exact: true }).click();
      await page.getByLabel('Reason shown to the manager').fill('Twice');
      return page.getByRole('button', { name: 'Request the resubmission' });
    };

    // With the console's script: a double click sends one POST (the button is disabled at once).
    const withScript = await loggedInContext(browser, alice);
    try {
      const client = await submitClient(backend, individualCase, documents);
      const page = await withScript.context.newPage();
      const button = await askResubmission(page, client.id);
      await button.dblclick();
      await expect.poll(() => page.getByRole('status').textContent()).toMatch(/asked to resubmit/);
      const posts = withScript.observed.urls.filter((url) =>
        url.endsWith(`/clients/${client.id}/request-resubmission`),
      );
      expect(posts).toHaveLength(1);
      expect(await requests(client.id)).toBe(1);
    } finally {
      await withScript.context.close();
    }

    // Without script, the same form sent twice (what a double click or a resend sends): the second
    // replays the first's outcome, by the form's Idempotency-Key, and acts no second time.
    const withoutScript = await loggedInContext(browser, alice, { javaScriptEnabled: false });
    try {
      const client = await submitClient(backend, entityCase, documents);
      const page = await withoutScript.context.newPage();
      const button = await askResubmission(page, client.id);
      const sent = page.waitForRequest((request) => request.method() === 'POST');
      await button.click();
      const form = (await sent).postData() ?? '';
      expect(form).toMatch(/_idempotencyKey=[0-9a-f-]{36}/);
      await expect.poll(() => page.getByRole('status').textContent()).toMatch(/asked to resubmit/);
      const again = await withoutScript.context.request.post(
        `${backend.origin}/review/clients/${client.id}/request-resubmission`,
        {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          data: form,
          maxRedirects: 0,
        },
      );
      expect(again.status()).toBe(303);
      expect(again.headers().location).toMatch(/notice=resubmission-requested$/);
      expect(await requests(client.id)).toBe(1);
      // A form rendered afresh is a new submission: refused now, the client is no longer under review.
      await page.goto(`${backend.origin}/review/clients/${client.id}`);
      await expect.poll(() => page.getByText('Request a resubmission', { exact: true }).count()).toBe(0);
    } finally {
      await withoutScript.context.close();
    }
  });
});
