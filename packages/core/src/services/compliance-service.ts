import { errAsync, type ResultAsync } from 'neverthrow';
import { type ClientCommandContext, runClientTransition } from '../commands/client-transition.js';
import { runCommand } from '../commands/idempotent-command.js';
import { auditActorOf } from '../domain/audit-entry.js';
import type { StoredClient } from '../domain/client.js';
import { refuseUnknownRequirementFields } from '../domain/resubmission-requirements.js';
import { screeningAllowsApproval } from '../domain/screening.js';
import { transitionClientStatus } from '../domain/status-machine.js';
import { signedBeforeCreation, toTermsAcceptance } from '../domain/terms-acceptance.js';
import { clientNotFound, type DomainError, screeningUnresolved } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { CompliancePrincipal } from '../principal.js';
import type { Client, ClientStatus } from '../schemas/client-response.js';
import { requestResubmissionBodySchema, termsSignedBodySchema } from '../schemas/compliance.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';

export interface ComplianceService {
  approve(
    principal: CompliancePrincipal,
    clientId: string,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
  /** `body`: `{ reason, requirements? }` (decisions §12). */
  requestResubmission(
    principal: CompliancePrincipal,
    clientId: string,
    body: unknown,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
  /** `body`: the evidence of the signature, or undefined when there is none to record. */
  markTermsSigned(
    principal: CompliancePrincipal,
    clientId: string,
    body?: unknown,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
}

type ReviewTrigger = 'APPROVE' | 'REQUEST_RESUBMISSION' | 'SIGN_TERMS';

/** What one review move records besides the status. */
type ReviewMove = {
  readonly trigger: ReviewTrigger;
  readonly resubmissionReason?: string;
  readonly refuseBody?: (client: StoredClient) => DomainError | undefined;
  /** The review fields the move writes (the reason and requirements are reset by every move). */
  readonly apply?: (
    client: StoredClient,
  ) => Partial<Pick<StoredClient, 'resubmissionRequirements' | 'termsAcceptance'>>;
};

/** The compliance team's review moves (decisions §3). Compliance sees every manager's clients. */
export const createComplianceService = (ctx: KitContext): ComplianceService => {
  const review = (
    principal: CompliancePrincipal,
    clientId: string,
    move: ReviewMove,
    command: ClientCommandContext | undefined,
  ): ResultAsync<Client, DomainError> =>
    runCommand(ctx, command, (transaction) =>
      isUuid(clientId)
        ? runClientTransition(ctx, transaction, {
            clientId,
            expectedVersion: command?.expectedVersion,
            trigger: move.trigger,
            actor: auditActorOf(principal),
            visibleTo: () => true,
            reason: move.resubmissionReason ?? null,
            ...(move.refuseBody && { refuseBody: move.refuseBody }),
            // The reason and requirements are shown only while the client is in RESUBMISSION_REQUIRED.
            apply: (client, to: ClientStatus, at) => ({
              ...client,
              status: to,
              onboardingResubmissionReason: move.resubmissionReason ?? null,
              resubmissionRequirements: null,
              ...move.apply?.(client),
              updatedAt: at,
            }),
          })
        : errAsync(clientNotFound(clientId)),
    );

  // A kit with a provider screens every client it approves.
  const screens = ctx.ports.screening !== undefined;
  /**
   * Both moves towards VERIFIED wait for a screening with every hit dismissed: a hit confirmed after
   * the approval holds the signed terms back. Only a client the status machine would move is
   * refused for its screening (a status refusal comes first). A client never screened (stored
   * before the kit had a provider: `screening: null`) is refused too when the kit now screens
   * (`NONE`): before, it was approved and verified unscreened, and no list version ever found it
   * (monitoring looks only at clients screened). A resubmission screens it.
   */
  const unresolvedScreening =
    (trigger: 'APPROVE' | 'SIGN_TERMS') =>
    (client: StoredClient): DomainError | undefined =>
      (client.screening === null ? !screens : screeningAllowsApproval(client.screening)) ||
      transitionClientStatus(client.id, client.status, trigger).isErr()
        ? undefined
        : screeningUnresolved(client.id, client.screening?.status ?? 'NONE', trigger);

  return {
    approve: (principal, clientId, command) =>
      review(
        principal,
        clientId,
        { trigger: 'APPROVE', refuseBody: unresolvedScreening('APPROVE') },
        command,
      ),
    requestResubmission: (principal, clientId, body, command) => {
      const parsed = parseRequest(requestResubmissionBodySchema, body);
      // Invalid input is refused before the command runs: runCommand releases the claim.
      if (parsed.isErr()) return runCommand(ctx, command, () => errAsync(parsed.error));
      const { reason, requirements = [] } = parsed.value;
      return review(
        principal,
        clientId,
        {
          trigger: 'REQUEST_RESUBMISSION',
          resubmissionReason: reason,
          // A field path is checked against the payload type of this client, once it is read.
          refuseBody: (client) =>
            refuseUnknownRequirementFields(requirements, client.clientType, ctx.schemas),
          apply: () => ({ resubmissionRequirements: requirements }),
        },
        command,
      );
    },
    markTermsSigned: (principal, clientId, body, command) => {
      const refuseBody = unresolvedScreening('SIGN_TERMS');
      if (body === undefined) {
        return review(principal, clientId, { trigger: 'SIGN_TERMS', refuseBody }, command);
      }
      const evidence = parseRequest(termsSignedBodySchema, body).andThen((parsed) =>
        toTermsAcceptance(parsed, ctx.ports.clock.now()),
      );
      if (evidence.isErr()) return runCommand(ctx, command, () => errAsync(evidence.error));
      const termsAcceptance = evidence.value;
      return review(
        principal,
        clientId,
        {
          trigger: 'SIGN_TERMS',
          refuseBody: (client) => signedBeforeCreation(termsAcceptance, client) ?? refuseBody(client),
          apply: () => ({ termsAcceptance }),
        },
        command,
      );
    },
  };
};
