import { randomUUID } from 'node:crypto';
import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  attachmentName,
  type DemoCall,
  demoCaller,
  downloadDocument,
  sampleBytes,
  uploadThroughLinks,
} from './support/demo-http.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

let demo: TestDemo;
let call: DemoCall;
beforeAll(async () => {
  demo = await startTestDemo();
  call = demoCaller(demo.origin);
});
afterAll(() => demo.close());

const manager = demoIdentities.managerA.apiKey;
const compliance = demoIdentities.compliance.apiKey;

test('the README walkthrough, end to end on a real socket, with real bytes through the signed links', async () => {
  // 1. Upload links, then the file's bytes through the link, as curl would.
  const passportName = 'passeport d’Amélie (recto).pdf';
  const passport = sampleBytes(48_000, 1);
  await uploadThroughLinks(call, manager, { [passportName]: passport });

  // 2. The upload is listed, with its size and its 24-hour expiry.
  // Beside the uploads the demo seeds for the API docs' examples (passport.pdf, passport-renewed.pdf).
  const uploads = await call('GET', '/manager/v1/uploads', { key: manager });
  expect(uploads.status).toBe(200);
  const ours = uploads.body.files.filter((file: { filename: string }) => file.filename === passportName);
  expect(ours).toEqual([
    {
      filename: passportName,
      size: passport.byteLength,
      uploadedAt: expect.any(String),
      expiresAt: expect.any(String),
    },
  ]);
  const listed = ours[0];
  expect(Date.parse(listed.expiresAt) - Date.parse(listed.uploadedAt)).toBe(24 * 60 * 60 * 1000);

  // 3. Create an individual naming the file, with an Idempotency-Key.
  const idempotencyKey = randomUUID();
  const payload = exampleIndividualPayload({ idDocuments: [passportName] });
  const created = await call('POST', '/manager/v1/clients/individuals', {
    key: manager,
    body: payload,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: 'ONBOARDING_UNDER_REVIEW', clientType: 'INDIVIDUAL' });
  const clientId: string = created.body.id;
  const [passportKey] = created.body.individualProfile.idDocuments as string[];
  expect(passportKey).toMatch(new RegExp(`^[0-9a-f-]{36}_${passportName.replace(/[()]/g, '\\$&')}$`));
  // The file left temporary storage; the same request again replays the same client.
  expect(
    (await call('GET', '/manager/v1/uploads', { key: manager })).body.files.map(
      (file: { filename: string }) => file.filename,
    ),
  ).not.toContain(passportName);
  const replay = await call('POST', '/manager/v1/clients/individuals', {
    key: manager,
    body: payload,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(created.body);

  // 4. The compliance team asks for a resubmission.
  const reason = 'The passport scan is cut off: send both pages.';
  const requirements = [
    {
      field: 'profile.idDocuments[0]',
      code: 'DOCUMENT_UNREADABLE',
      message: 'Both pages of the passport, in one file.',
    },
  ];
  const resubmissionRequired = await call('POST', `/compliance/v1/clients/${clientId}/request-resubmission`, {
    key: compliance,
    body: { reason, requirements },
  });
  expect(resubmissionRequired.status).toBe(200);
  expect(resubmissionRequired.body).toMatchObject({
    status: 'RESUBMISSION_REQUIRED',
    onboardingResubmissionReason: reason,
    resubmissionRequirements: requirements,
  });

  // 5. A new file, uploaded the same way, and the resubmission naming it.
  const scanName = 'passport-both-pages.pdf';
  const scan = sampleBytes(130_000, 2);
  await uploadThroughLinks(call, manager, { [scanName]: scan });
  const resubmitted = await call('PUT', `/manager/v1/clients/individuals/${clientId}/onboarding`, {
    key: manager,
    body: exampleIndividualPayload({ idDocuments: [scanName] }),
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(resubmitted.status).toBe(201);
  expect(resubmitted.body).toMatchObject({
    status: 'ONBOARDING_UNDER_REVIEW',
    onboardingResubmissionReason: null,
    resubmissionRequirements: null,
  });
  const [scanKey] = resubmitted.body.individualProfile.idDocuments as string[];
  expect(scanKey).toMatch(new RegExp(`^[0-9a-f-]{36}_${scanName}$`));

  // 6. Approved, then the terms signed.
  const approved = await call('POST', `/compliance/v1/clients/${clientId}/approve`, { key: compliance });
  expect(approved.status).toBe(200);
  expect(approved.body.status).toBe('WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE');
  const evidence = {
    termsVersion: '2026-03',
    signedAt: `${new Date().toISOString().slice(0, 19)}Z`,
    signatoryName: 'Amélie Laurent',
    ipAddress: '203.0.113.7',
  };
  const verified = await call('POST', `/compliance/v1/clients/${clientId}/terms-signed`, {
    key: compliance,
    body: evidence,
  });
  expect(verified.status).toBe(200);
  expect(verified.body).toMatchObject({
    status: 'VERIFIED',
    termsAcceptance: { ...evidence, signedAt: `${evidence.signedAt.slice(0, 19)}.000Z`, userAgent: null },
  });

  // 7. Both documents download through their links: the same bytes, named as uploaded.
  for (const [documentKey, name, bytes] of [
    [scanKey, scanName, scan],
    [passportKey, passportName, passport],
  ] as const) {
    const downloaded = await downloadDocument(call, manager, documentKey ?? '');
    expect(downloaded.bytes).toEqual(bytes);
    expect(attachmentName(downloaded.contentDisposition)).toBe(name);
  }

  // The whole review is in the status history, oldest first.
  const history = await call('GET', `/manager/v1/clients/${clientId}/status-history`, { key: manager });
  expect(history.status).toBe(200);
  expect(history.body.map((entry: { from: string | null; to: string }) => [entry.from, entry.to])).toEqual([
    [null, 'ONBOARDING_UNDER_REVIEW'],
    ['ONBOARDING_UNDER_REVIEW', 'RESUBMISSION_REQUIRED'],
    ['RESUBMISSION_REQUIRED', 'ONBOARDING_UNDER_REVIEW'],
    ['ONBOARDING_UNDER_REVIEW', 'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE'],
    ['WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE', 'VERIFIED'],
  ]);

  // Delete, then compliance redacts: the personal data and the documents are gone.
  expect((await call('DELETE', `/manager/v1/clients/${clientId}`, { key: manager })).status).toBe(200);
  const redacted = await call('POST', `/compliance/v1/clients/${clientId}/redact`, { key: compliance });
  expect(redacted.status).toBe(200);
  expect(redacted.body).toMatchObject({
    status: 'DELETED',
    redactedAt: expect.any(String),
    individualProfile: null,
  });
  const gone = await call('POST', '/manager/v1/documents/request-batch-download', {
    key: manager,
    body: { filenames: [passportKey] },
  });
  expect(gone.status).toBe(404);
  expect(demo.logged).toEqual([]);
});
