import {
  type Client,
  exampleEntityPayload,
  exampleIndividualPayload,
  type ManagerPrincipal,
  type OnboardingKit,
} from '@onboarding-kit/core';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible, type Observed, screenshot, tabTo } from './browser-session.js';

/** A kit behind a running host with the console at /review, whichever back end it runs on. */
export type ReviewBackend = {
  readonly name: string;
  readonly origin: string;
  readonly kit: OnboardingKit;
  readonly manager: ManagerPrincipal;
  /** The manager uploads a file to its temporary storage through the kit's upload link. */
  upload(filename: string, bytes: Uint8Array): Promise<void>;
  /** Returns once the client's screening has run (memory: runs the due jobs; PostgreSQL: the runner's). */
  screened(clientId: string): Promise<void>;
};

/** Real documents a browser can show: a PDF and a PNG Chromium renders from a line of text. */
export type SpecimenDocuments = { readonly pdf: Uint8Array; readonly png: Uint8Array };

export const renderSpecimens = async (browser: Browser): Promise<SpecimenDocuments> => {
  const page = await browser.newPage({ viewport: { width: 480, height: 300 } });
  try {
    await page.setContent(
      '<body style="font:24px sans-serif;padding:2rem;background:#eef"><h1>SPECIMEN</h1><p>Identity document — test fixture</p></body>',
    );
    const png = new Uint8Array(await page.screenshot());
    const pdf = new Uint8Array(await page.pdf({ width: '480px', height: '300px' }));
    return { pdf, png };
  } finally {
    await page.close();
  }
};

/** The client under review and what the flow asks of it. */
export type ReviewCase = {
  readonly kind: 'individual' | 'entity';
  /** The name the queue and the page show. */
  readonly name: string;
  /** The document the reviewer opens (a PDF) and the image opened too. */
  readonly pdfName: string;
  readonly pngName: string;
  /** The payload field the resubmission names (a document of the client). */
  readonly resubmittedField: RegExp;
};

export const individualCase: ReviewCase = {
  kind: 'individual',
  name: 'Camille Durand',
  pdfName: 'passport.pdf',
  pngName: 'proof-of-address.png',
  resubmittedField: /^profile\.idDocuments\[0\]$/,
};

export const entityCase: ReviewCase = {
  kind: 'entity',
  name: 'Boulangerie Numérique SAS',
  pdfName: 'proof-of-incorporation.pdf',
  pngName: 'shareholder-chart.png',
  resubmittedField: /^company\.proofOfIncorporationDocuments\[0\]$/,
};

/** The manager creates (round 1) or resubmits (round 2) the case's client with fresh uploads. */
export const submitClient = async (
  backend: ReviewBackend,
  review: ReviewCase,
  documents: SpecimenDocuments,
  resubmit?: Client,
): Promise<Client> => {
  const round = resubmit === undefined ? '' : '-2';
  const pdf = review.pdfName.replace('.pdf', `${round}.pdf`);
  const png = review.pngName.replace('.png', `${round}.png`);
  await backend.upload(pdf, documents.pdf);
  await backend.upload(png, documents.png);
  const { kit, manager } = backend;
  const result =
    review.kind === 'individual'
      ? resubmit === undefined
        ? await kit.clients.createIndividual(
            manager,
            exampleIndividualPayload({ idDocuments: [pdf], proofOfAddressDocuments: [png] }),
          )
        : await kit.clients.resubmitIndividual(
            manager,
            resubmit.id,
            exampleIndividualPayload({ idDocuments: [pdf], proofOfAddressDocuments: [png] }),
          )
      : resubmit === undefined
        ? await kit.clients.createEntity(
            manager,
            exampleEntityPayload({
              proofOfIncorporationDocuments: [pdf],
              structureChartOfShareholdersDocuments: [png],
            }),
          )
        : await kit.clients.resubmitEntity(
            manager,
            resubmit.id,
            exampleEntityPayload({
              proofOfIncorporationDocuments: [pdf],
              structureChartOfShareholdersDocuments: [png],
            }),
          );
  const client = result._unsafeUnwrap();
  await backend.screened(client.id);
  return client;
};

/** The console page is shown, says `notice` when given, and is accessible when `checked`. */
const expectPage = async (
  page: Page,
  title: RegExp,
  what: string,
  notice: RegExp | undefined,
  checked: boolean,
) => {
  await expect.poll(() => page.title()).toMatch(title);
  if (notice !== undefined) await expect.poll(() => page.getByRole('status').textContent()).toMatch(notice);
  if (checked) await expectAccessible(page, what);
};

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

/** Opens a document from the client page: a new tab showing it inline, its bytes the uploaded ones. */
const openDocument = async (page: Page, filename: string, bytes: Uint8Array, type: string): Promise<Page> => {
  const [popup, response] = await Promise.all([
    page.waitForEvent('popup'),
    page.context().waitForEvent('response', (answer) => answer.url().endsWith('/documents/open')),
    page.getByRole('button', { name: filename, exact: true }).click(),
  ]);
  expect(response.status()).toBe(200);
  const headers = await response.allHeaders();
  expect(headers['content-type']).toBe(type);
  expect(headers['content-disposition']).toMatch(/^inline; filename\*=UTF-8''/);
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['content-length']).toBe(String(bytes.length));
  // Chromium shows a PDF in its own viewer, whose page stands in for the body it reads.
  if (type !== 'application/pdf') expect(new Uint8Array(await response.body())).toEqual(bytes);
  return popup;
};

/** Dismisses every open hit of the client page, with a reason. */
const dismissOpenHits = async (page: Page, review: ReviewCase, accessibility: boolean) => {
  for (;;) {
    const open = page.locator('article.hit').filter({ has: page.getByText('Open', { exact: true }) });
    if ((await open.count()) === 0) return;
    const hit = open.first();
    await hit.getByLabel(/Dismiss/).check();
    await hit.getByLabel('Reason').fill(`Not the listed party: other birth date (${review.kind})`);
    await hit.getByRole('button', { name: 'Record the decision' }).click();
    await expectPage(
      page,
      /Review console/,
      'client page after a decision',
      /decision on the hit is recorded/,
      accessibility,
    );
  }
};

/**
 * The whole review of one client in the browser, as a reviewer does it: the queue, assign, open
 * the client and its documents, dismiss the hits, request a resubmission with a requirement, see
 * the client come back after the manager resubmits, approve, record the terms signed.
 */
export const reviewInBrowser = async (
  page: Page,
  backend: ReviewBackend,
  review: ReviewCase,
  documents: SpecimenDocuments,
  options: {
    readonly screenshots?: string;
    readonly keyboardOnly?: boolean;
    /**
     * axe-core on every view (default). The views' markup is the console's, from the same example
     * clients, whatever stores the kit: one back end's run checks it for all.
     */
    readonly accessibility?: boolean;
  } = {},
): Promise<Client> => {
  const accessibility = options.accessibility ?? true;
  const shot = async (name: string, target: Page | Locator = page) => {
    if (options.screenshots !== undefined) await screenshot(target, `${options.screenshots}-${name}`);
  };
  const submitted = await submitClient(backend, review, documents);
  const queueUrl = `${backend.origin}/review/`;

  // The queue: the client waits, unassigned, its screening with open hits.
  await page.goto(queueUrl);
  await expectPage(page, /^Review queue/, 'queue', undefined, accessibility);
  const row = rowOf(page, review.name);
  await expect.poll(() => row.textContent()).toMatch(/Unassigned/);
  await expect.poll(() => row.textContent()).toMatch(/open hit/);
  await shot('queue');

  // Assign to me, from the queue's row.
  if (options.keyboardOnly) {
    await tabTo(page, new RegExp(`^a ${review.name}$`));
    await tabTo(page, /^button Assign to me$/);
    await page.keyboard.press('Enter');
  } else {
    await row.getByRole('button', { name: 'Assign to me' }).click();
  }
  await expectPage(page, /^Review queue/, 'queue after assign', /assigned to you/, accessibility);
  await expect.poll(() => rowOf(page, review.name).textContent()).toMatch(/You/);

  // The client's page: approval held back by the open hits, said beside the disabled button.
  if (options.keyboardOnly) {
    await tabTo(page, new RegExp(`^a ${review.name}$`));
    await page.keyboard.press('Enter');
  } else {
    await rowOf(page, review.name).getByRole('link', { name: review.name }).click();
  }
  await expectPage(page, new RegExp(`^${review.name}`), 'client page', undefined, accessibility);
  const approve = page.getByRole('button', { name: 'Approve', exact: true });
  await expect.poll(() => approve.isDisabled()).toBe(true);
  await expect.poll(() => page.locator('#requirements').textContent()).toMatch(/SCREENING_HIT_UNRESOLVED/);
  await shot('client');
  await shot('hit', page.locator('article.hit').first());

  // Documents open inline through the kit's presigned links (each opening audited).
  const pdfTab = await openDocument(page, review.pdfName, documents.pdf, 'application/pdf');
  await pdfTab.close();
  const pngTab = await openDocument(page, review.pngName, documents.png, 'image/png');
  await expect.poll(() => pngTab.locator('img').count()).toBe(1);
  await shot('document', pngTab);
  await pngTab.close();

  // Dismiss each hit with a reason.
  if (options.keyboardOnly) {
    for (;;) {
      const open = await page
        .locator('article.hit')
        .filter({ has: page.getByText('Open', { exact: true }) })
        .count();
      if (open === 0) break;
      await page.locator('main').focus();
      await tabTo(page, /^input Dismiss/);
      await page.keyboard.press('Space');
      await tabTo(page, /^input Reason/);
      await page.keyboard.type('Not the listed party: other birth date (keyboard)');
      await tabTo(page, /^button Record the decision$/);
      await page.keyboard.press('Enter');
      await expectPage(
        page,
        /Review console/,
        'client page after a decision',
        /decision on the hit is recorded/,
        accessibility,
      );
    }
  } else {
    await dismissOpenHits(page, review, accessibility);
  }
  await expect.poll(() => approve.isDisabled()).toBe(false);

  // Request a resubmission: a reason, and a requirement on a field picked from the payload.
  await page.getByText('Request a resubmission', { exact: true }).click();
  await page.getByLabel('Reason shown to the manager').fill('The document is unreadable');
  const field = page.getByLabel('Field', { exact: true }).first();
  const fieldValue = (await field.locator('option').allTextContents()).find((text) =>
    review.resubmittedField.test(text),
  );
  expect(fieldValue, 'the requirement field is offered from the payload').toBeDefined();
  await field.selectOption(fieldValue as string);
  await page.getByLabel('Code', { exact: true }).first().selectOption('DOCUMENT_UNREADABLE');
  await page.getByLabel('Message', { exact: true }).first().fill('The scan is blurred: upload a sharper one');
  await shot('resubmission-form', page.locator('section.panel').first());
  await page.getByRole('button', { name: 'Request the resubmission' }).click();
  await expectPage(
    page,
    /Review console/,
    'client page after the resubmission request',
    /asked to resubmit/,
    accessibility,
  );
  await expect.poll(() => page.locator('.summary').textContent()).toMatch(/Resubmission required/);
  await expect.poll(() => page.locator('#requirements').textContent()).toMatch(/RESUBMISSION_OUTSTANDING/);
  const asked = (await backend.kit.clients.get(backend.manager, submitted.id))._unsafeUnwrap();
  expect(asked.resubmissionRequirements).toEqual([
    { field: fieldValue, code: 'DOCUMENT_UNREADABLE', message: 'The scan is blurred: upload a sharper one' },
  ]);

  // The manager resubmits; the client is back in the queue, under review.
  await submitClient(backend, review, documents, asked);
  await page.goto(queueUrl);
  await expectPage(page, /^Review queue/, 'queue with the resubmitted client', undefined, accessibility);
  await expect.poll(() => rowOf(page, review.name).textContent()).toMatch(/Under review/);
  await rowOf(page, review.name).getByRole('link', { name: review.name }).click();
  await expectPage(page, new RegExp(`^${review.name}`), 'resubmitted client page', undefined, accessibility);
  await dismissOpenHits(page, review, accessibility);

  // Approve, then record the terms signed: the client is verified.
  if (options.keyboardOnly) {
    await page.locator('main').focus();
    await tabTo(page, /^button Approve$/);
    await page.keyboard.press('Enter');
  } else {
    await approve.click();
  }
  await expectPage(page, /Review console/, 'client page after approval', /Approved/, accessibility);
  await expect.poll(() => page.locator('#requirements').textContent()).toMatch(/TERMS_NOT_SIGNED/);
  await page.getByLabel('Terms version').fill('2026-11');
  await page.getByLabel('Signed at (ISO 8601)').fill(new Date().toISOString());
  await page.getByLabel('Signatory name').fill(review.name);
  await page.getByLabel('IP address').fill('203.0.113.7');
  await page.getByRole('button', { name: 'Record the signature' }).click();
  await expectPage(page, /Review console/, 'verified client page', /signature is recorded/, accessibility);
  await expect.poll(() => page.locator('.summary').textContent()).toMatch(/Verified/);
  await shot('verified');

  const verified = (await backend.kit.clients.get(backend.manager, submitted.id))._unsafeUnwrap();
  expect(verified.status).toBe('VERIFIED');
  return verified;
};

/** Nothing personal in any URL the browser asked for, and every console page kept by no cache. */
export const expectSafeTraffic = (observed: Observed, personal: readonly string[]) => {
  expect(observed.errors, 'console errors (a CSP violation shows here)').toEqual([]);
  for (const url of observed.urls) {
    const decoded = decodeURIComponent(url).toLowerCase();
    for (const text of personal) expect(decoded, `personal data in ${url}`).not.toContain(text.toLowerCase());
  }
  expect(observed.pages.length).toBeGreaterThan(5);
  for (const { url, headers } of observed.pages) {
    expect(headers['cache-control'], url).toBe('no-store');
    expect(headers['content-security-policy'], url).toMatch(/default-src 'none'/);
  }
};
