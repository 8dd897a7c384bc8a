import {
  type ClientCommandContext,
  type DomainError,
  type OnboardingKit,
  principalKey,
} from '@onboarding-kit/core';
import type { ResultAsync } from 'neverthrow';
import { type Reviewer, reviewerPrincipal } from './reviewer.js';

/** What one form submission came to. */
export type ActionOutcome =
  | { readonly type: 'Done'; readonly value: unknown }
  | { readonly type: 'Refused'; readonly error: DomainError }
  /** The same submission (its Idempotency-Key) is still running: a double click. */
  | { readonly type: 'InProgress' }
  /**
   * The client changed after the form's page was rendered (the kit's `ClientChanged`, found on the
   * client locked in the command's transaction): nothing was written, and the key is released.
   */
  | { readonly type: 'Stale' };

/**
 * Runs one form submission through a kit service exactly once per its Idempotency-Key (a hidden
 * field each rendered form carries): a second submission of the same form replays the first's
 * outcome, or finds it still running, and acts no second time. Scoped to the reviewer and the
 * action with its client, as the kit's HTTP routes scope a key.
 */
export const runConsoleAction = async (
  kit: OnboardingKit,
  reviewer: Reviewer,
  action: { readonly route: string; readonly key: string; readonly body: unknown },
  run: (context: ClientCommandContext) => ResultAsync<unknown, DomainError>,
  /** The version of the client the form's page showed, for an action that decides on it. */
  expectedVersion?: string,
): Promise<ActionOutcome> => {
  const owner = principalKey(reviewerPrincipal(reviewer));
  const decision = await kit.idempotency.claim({
    scope: `${owner} review-console POST ${action.route}`,
    key: action.key,
    owner,
    body: action.body ?? null,
  });
  if (decision.isErr()) {
    return decision.error.type === 'IdempotencyRequestInProgress'
      ? { type: 'InProgress' }
      : { type: 'Refused', error: decision.error };
  }
  if (decision.value.type === 'Replay') {
    const outcome = decision.value.outcome;
    if (outcome.kind === 'command') {
      return outcome.ok ? { type: 'Done', value: outcome.value } : { type: 'Refused', error: outcome.error };
    }
    return { type: 'Done', value: outcome.body };
  }
  // The command owns the claim from here: it records its outcome, or releases the key on ClientChanged.
  const result = await run({
    claim: decision.value.ref,
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
  });
  if (result.isOk()) return { type: 'Done', value: result.value };
  return result.error.type === 'ClientChanged' ? { type: 'Stale' } : { type: 'Refused', error: result.error };
};
