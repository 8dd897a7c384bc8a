import { randomUUID } from 'node:crypto';
import {
  createOnboardingKit,
  exampleIndividualPayload,
  type ManagerPrincipal,
  systemClock,
} from '@onboarding-kit/core';
import type { WebhookAnswer, WebhookRequest, WebhookTransport } from '@onboarding-kit/core/adapter';
import { createMemoryAdapters, createRandomIds } from '@onboarding-kit/memory';
import { okAsync } from 'neverthrow';
import type { MigratedDatabase } from './postgres-test-database.js';

/** A receiver in the test: records what it is sent and answers as told (default 204). */
export const recordingWebhookTransport = () => {
  const sent: WebhookRequest[] = [];
  let answer: (request: WebhookRequest) => WebhookAnswer = () => ({
    type: 'answered',
    statusCode: 204,
    retryAfter: null,
  });
  const transport: WebhookTransport = {
    send: (request) => {
      sent.push(request);
      return okAsync(answer(request));
    },
  };
  return { transport, sent, answerWith: (next: typeof answer) => (answer = next) };
};

/**
 * The kit on `database`'s adapters (documents in memory) delivering to a recording receiver, a
 * manager of its own, and `createClient`: one individual created for that manager, with its file.
 */
export const webhookKitOnPostgres = (database: MigratedDatabase) => {
  const memory = createMemoryAdapters();
  const receiver = recordingWebhookTransport();
  const kit = createOnboardingKit({
    ...database.adapters,
    documentStorage: memory.documentStorage,
    clock: systemClock,
    ids: createRandomIds(),
    webhookTransport: receiver.transport,
  });
  const principal: ManagerPrincipal = { kind: 'manager', managerId: randomUUID() };
  let files = 0;
  const createClient = async (): Promise<void> => {
    files += 1;
    const filename = `id-${files}.pdf`;
    memory.testing.putTemporaryFile(`manager:${principal.managerId}`, filename, new Uint8Array(8));
    (
      await kit.clients.createIndividual(principal, exampleIndividualPayload({ idDocuments: [filename] }))
    )._unsafeUnwrap();
  };
  return { kit, receiver, principal, createClient };
};
