import { err, errAsync, ok, type ResultAsync } from 'neverthrow';
import { type IdempotentCommandContext, runCommand } from '../commands/idempotent-command.js';
import {
  newWebhookSecret,
  rotatedSecrets,
  type StoredWebhookEndpoint,
  toWebhookEndpointResponse,
} from '../domain/webhook-endpoint.js';
import {
  type DomainError,
  storageUnavailable,
  validationFailed,
  webhookEndpointLimitReached,
  webhookEndpointNotFound,
} from '../errors.js';
import type { KitContext } from '../kit-context.js';
import type { WebhookEndpointStore } from '../ports/webhook-endpoint-store.js';
import type { ManagerPrincipal } from '../principal.js';
import {
  type CreatedWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointListResponse,
  type WebhookSecretRotationResponse,
  webhookEndpointCreateBodySchema,
  webhookSecretRotationBodySchema,
} from '../schemas/webhook-endpoints.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';
import { checkWebhookEndpointUrl } from '../validation/webhook-endpoint-url.js';

/** A manager's webhook endpoints: register, read, rotate the secret, enable again, remove. */
export interface WebhookEndpointOperations {
  createEndpoint(
    principal: ManagerPrincipal,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<CreatedWebhookEndpoint, DomainError>;
  listEndpoints(principal: ManagerPrincipal): ResultAsync<WebhookEndpointListResponse, DomainError>;
  getEndpoint(principal: ManagerPrincipal, endpointId: string): ResultAsync<WebhookEndpoint, DomainError>;
  /** Removes the endpoint and its deliveries; answers the endpoint as it was. */
  deleteEndpoint(
    principal: ManagerPrincipal,
    endpointId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookEndpoint, DomainError>;
  rotateSecret(
    principal: ManagerPrincipal,
    endpointId: string,
    body: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookSecretRotationResponse, DomainError>;
  /**
   * Enables an endpoint the kit disabled (410 Gone, or failing for 5 days): new events are delivered
   * to it again. Its deliveries that failed meanwhile stay failed (redeliver them).
   */
  enableEndpoint(
    principal: ManagerPrincipal,
    endpointId: string,
    context?: IdempotentCommandContext,
  ): ResultAsync<WebhookEndpoint, DomainError>;
}

/** A manager's own endpoint, or `WebhookEndpointNotFound` (another manager's reads the same). */
export const findOwnEndpoint = (
  endpoints: Pick<WebhookEndpointStore, 'find'>,
  principal: ManagerPrincipal,
  endpointId: string,
): ResultAsync<StoredWebhookEndpoint, DomainError> =>
  !isUuid(endpointId)
    ? errAsync(webhookEndpointNotFound(endpointId))
    : endpoints
        .find(principal.managerId, endpointId)
        .andThen((endpoint) => (endpoint === null ? err(webhookEndpointNotFound(endpointId)) : ok(endpoint)));

/**
 * Registering, reading, rotating and removing a manager's webhook endpoints. Each change runs as one
 * idempotent command: its write commits with its Idempotency-Key record, and invalid input releases
 * the key (decisions §5), so a corrected retry runs anew.
 */
export const createWebhookEndpointOperations = (ctx: KitContext): WebhookEndpointOperations => {
  const { ports, options } = ctx;
  const now = () => ports.clock.now();

  /**
   * The endpoint is read with a row lock, so concurrent rotations run one after the other, each
   * on the secrets the previous one wrote; the compare-and-set then cannot miss. Were it to (a
   * store without the lock), the answer is a retryable 503, never a "not found" that the
   * Idempotency-Key would replay while the endpoint exists.
   */
  const rotate = (
    endpoints: WebhookEndpointStore,
    principal: ManagerPrincipal,
    endpointId: string,
    overlapMs: number,
  ): ResultAsync<{ secret: string; previousSecretExpiresAt: string | null }, DomainError> =>
    findOwnEndpoint(
      { find: (managerId, id) => endpoints.findForUpdate(managerId, id) },
      principal,
      endpointId,
    ).andThen((endpoint) => {
      const secret = newWebhookSecret();
      const { secrets, previousSecretExpiresAt } = rotatedSecrets(endpoint, secret, now(), overlapMs);
      return endpoints
        .replaceSecrets(principal.managerId, endpointId, endpoint.secrets, secrets)
        .andThen((replaced) =>
          replaced
            ? ok({ secret, previousSecretExpiresAt })
            : err(storageUnavailable('webhook-endpoints')('The secrets changed under a row lock')),
        );
    });

  return {
    createEndpoint: (principal, body, context) =>
      runCommand(ctx, context, (transaction) => {
        const parsed = parseRequest(webhookEndpointCreateBodySchema, body);
        if (parsed.isErr()) return errAsync(parsed.error);
        const url = checkWebhookEndpointUrl(parsed.value.url, {
          allowPrivateNetworks: options.webhookAllowPrivateNetworks,
        });
        if (url.isErr()) {
          return errAsync(validationFailed('The request body is invalid', { url: [url.error] }));
        }
        const secret = newWebhookSecret();
        const endpoint: StoredWebhookEndpoint = {
          id: ports.ids.uuid(),
          managerId: principal.managerId,
          url: url.value,
          description: parsed.value.description ?? null,
          eventTypes: parsed.value.eventTypes ?? null,
          createdAt: now().toISOString(),
          secrets: [{ secret, expiresAt: null }],
          failingSince: null,
          disabledAt: null,
          disabledReason: null,
        };
        return transaction((stores) =>
          stores.webhookEndpoints
            .insertWithinLimit(endpoint, options.maxWebhookEndpointsPerManager)
            .andThen((inserted) =>
              inserted
                ? // Shown this once (and replayed to a retry with the same Idempotency-Key).
                  ok({ ...toWebhookEndpointResponse(endpoint, now()), secret })
                : err(webhookEndpointLimitReached(options.maxWebhookEndpointsPerManager)),
            ),
        );
      }),
    listEndpoints: (principal) =>
      ports.webhookEndpoints.listForManager(principal.managerId).map((endpoints) => ({
        data: endpoints.map((endpoint) => toWebhookEndpointResponse(endpoint, now())),
      })),
    getEndpoint: (principal, endpointId) =>
      findOwnEndpoint(ports.webhookEndpoints, principal, endpointId).map((endpoint) =>
        toWebhookEndpointResponse(endpoint, now()),
      ),
    deleteEndpoint: (principal, endpointId, context) =>
      runCommand(ctx, context, (transaction) =>
        transaction((stores) =>
          findOwnEndpoint(stores.webhookEndpoints, principal, endpointId).andThen((endpoint) =>
            stores.webhookEndpoints
              .remove(principal.managerId, endpointId)
              .andThen((removed) =>
                removed
                  ? ok(toWebhookEndpointResponse(endpoint, now()))
                  : err(webhookEndpointNotFound(endpointId)),
              ),
          ),
        ),
      ),
    rotateSecret: (principal, endpointId, body, context) =>
      runCommand(ctx, context, (transaction) => {
        const parsed = parseRequest(webhookSecretRotationBodySchema, body ?? {});
        if (parsed.isErr()) return errAsync(parsed.error);
        const overlapMs =
          parsed.value.overlapSeconds === undefined
            ? options.webhookSecretOverlapMs
            : parsed.value.overlapSeconds * 1000;
        return transaction((stores) => rotate(stores.webhookEndpoints, principal, endpointId, overlapMs));
      }),
    // Enabling an enabled endpoint changes nothing but its failing streak, which starts afresh.
    enableEndpoint: (principal, endpointId, context) =>
      runCommand(ctx, context, (transaction) =>
        transaction((stores) =>
          findOwnEndpoint(stores.webhookEndpoints, principal, endpointId).andThen((endpoint) =>
            stores.webhookEndpoints
              .enable(principal.managerId, endpointId)
              .andThen((enabled) =>
                enabled
                  ? ok(
                      toWebhookEndpointResponse(
                        { ...endpoint, failingSince: null, disabledAt: null, disabledReason: null },
                        now(),
                      ),
                    )
                  : err(webhookEndpointNotFound(endpointId)),
              ),
          ),
        ),
      ),
  };
};
