import { exampleIndividualPayload } from '@onboarding-kit/core';
import type { WebhookAnswer, WebhookRequest, WebhookTransport } from '@onboarding-kit/core/adapter';
import { okAsync } from 'neverthrow';
import { kitOnPostgres } from './kit-on-postgres.js';
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
  const receiver = recordingWebhookTransport();
  const {
    kit,
    manager: principal,
    upload,
  } = kitOnPostgres(database.adapters, { webhookTransport: receiver.transport });
  let files = 0;
  const createClient = async (): Promise<void> => {
    files += 1;
    const filename = `id-${files}.pdf`;
    upload(filename);
    (
      await kit.clients.createIndividual(principal, exampleIndividualPayload({ idDocuments: [filename] }))
    )._unsafeUnwrap();
  };
  return { kit, receiver, principal, createClient };
};
