import type { OnboardingKit } from '@onboarding-kit/core';
import { defaultOnboardingPayloadSchemas } from '@onboarding-kit/core/schemas';
import { okAsync } from 'neverthrow';

/**
 * The kit as the HTTP bench's "binding only" target sees it: every route, key check, body parser,
 * idempotency header and answer of the Express binding as the demo mounts them, but
 * `clients.createIndividual` only runs the same zod schema and answers `answer`, a client the real
 * kit created once. The bench sets it beside the bare Express baseline and the whole demo, to tell
 * what the binding costs from what the create's own work costs (docs/performance.md). Any payload the
 * schema refuses goes to the real service, so a refusal is answered as the kit answers it.
 */
export const bindingOnlyKit = (kit: OnboardingKit, answer: unknown): OnboardingKit => {
  const schema = defaultOnboardingPayloadSchemas.individualPayload;
  const createIndividual: OnboardingKit['clients']['createIndividual'] = (principal, payload, context) =>
    schema.safeParse(payload).success
      ? okAsync(answer as never)
      : kit.clients.createIndividual(principal, payload, context);
  return { ...kit, clients: { ...kit.clients, createIndividual } };
};
