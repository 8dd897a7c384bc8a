import { errAsync, type ResultAsync } from 'neverthrow';
import { runClientTransition } from '../commands/client-transition.js';
import type { IdempotentCommandContext } from '../commands/idempotent-command.js';
import { runCommand } from '../commands/idempotent-command.js';
import { auditActorOf } from '../domain/audit-entry.js';
import { isUuid } from '../domain/uuid.js';
import { clientNotFound, type DomainError } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { CompliancePrincipal } from '../principal.js';
import type { Client } from '../schemas/client-response.js';
import { requestResubmissionBodySchema } from '../schemas/compliance.js';
import { parseRequest } from '../validation/parse-request.js';

export interface ComplianceService {
  approve(
    principal: CompliancePrincipal,
    clientId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  requestResubmission(
    principal: CompliancePrincipal,
    clientId: string,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  markTermsSigned(
    principal: CompliancePrincipal,
    clientId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
}

type ReviewTrigger = 'APPROVE' | 'REQUEST_RESUBMISSION' | 'SIGN_TERMS';

/** The compliance team's review moves (decisions §3). Compliance sees every manager's clients. */
export const createComplianceService = (ctx: KitContext): ComplianceService => {
  const review = (
    principal: CompliancePrincipal,
    clientId: string,
    trigger: ReviewTrigger,
    command: IdempotentCommandContext | undefined,
    resubmissionReason: string | null = null,
  ): ResultAsync<Client, DomainError> =>
    runCommand(ctx, command, (transaction) =>
      isUuid(clientId)
        ? runClientTransition(ctx, transaction, {
            clientId,
            trigger,
            actor: auditActorOf(principal),
            visibleTo: () => true,
            reason: resubmissionReason,
            // The reason is shown only while the client is in RESUBMISSION_REQUIRED.
            apply: (client, to, at) => ({
              ...client,
              status: to,
              onboardingResubmissionReason: resubmissionReason,
              updatedAt: at,
            }),
          })
        : errAsync(clientNotFound(clientId)),
    );

  return {
    approve: (principal, clientId, command) => review(principal, clientId, 'APPROVE', command),
    requestResubmission: (principal, clientId, body, command) => {
      const parsed = parseRequest(requestResubmissionBodySchema, body);
      // Invalid input is refused before the command runs: runCommand releases the claim.
      if (parsed.isErr()) return runCommand(ctx, command, () => errAsync(parsed.error));
      return review(principal, clientId, 'REQUEST_RESUBMISSION', command, parsed.value.reason);
    },
    markTermsSigned: (principal, clientId, command) => review(principal, clientId, 'SIGN_TERMS', command),
  };
};
