import { okAsync } from 'neverthrow';
import type { WebhookAnswer, WebhookRequest, WebhookTransport } from '../ports/webhook-transport.js';

/** A webhook transport for host tests: keeps every request, answers what `answer` says (200 by default). */
export type RecordingWebhookTransport = WebhookTransport & {
  /** Every request sent, oldest first. */
  readonly sent: WebhookRequest[];
  /** Changes the answer of the next requests (a status, a Retry-After, or no answer at all). */
  answerWith(answer: WebhookAnswer | ((request: WebhookRequest) => WebhookAnswer)): void;
};

export const createRecordingWebhookTransport = (): RecordingWebhookTransport => {
  const sent: WebhookRequest[] = [];
  let answer: (request: WebhookRequest) => WebhookAnswer = () => ({
    type: 'answered',
    statusCode: 200,
    retryAfter: null,
  });
  return {
    sent,
    answerWith: (next) => {
      answer = typeof next === 'function' ? next : () => next;
    },
    send: (request) => {
      sent.push(request);
      return okAsync(answer(request));
    },
  };
};
