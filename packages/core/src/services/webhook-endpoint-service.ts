import { err, errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { isUuid } from '../domain/uuid.js';
import {
  newWebhookSecret,
  rotatedSecrets,
  type StoredWebhookEndpoint,
  toWebhookEndpointResponse,
} from '../domain/webhook-endpoint.js';
import {
  type DomainError,
  validationFailed,
  webhookEndpointLimitReached,
  webhookEndpointNotFound,
} from '../errors.js';
import type { WebhookService } from '../onboarding-kit.js';
import type { ManagerPrincipal } from '../principal.js';
import {
  webhookEndpointCreateBodySchema,
  webhookSecretRotationBodySchema,
} from '../schemas/webhook-endpoints.js';
import { parseRequest } from '../validation/parse-request.js';
import { checkWebhookEndpointUrl } from '../validation/webhook-endpoint-url.js';
import { runCommand } from './idempotent-command.js';
import type { KitContext } from './kit-context.js';

/** Rotations retried when another one changed the secrets in between. */
const ROTATION_ATTEMPTS = 3;

export type WebhookEndpointOperations = Pick<
  WebhookService,
  'createEndpoint' | 'listEndpoints' | 'getEndpoint' | 'deleteEndpoint' | 'rotateSecret'
>;

/** A manager's own endpoint, or `WebhookEndpointNotFound` (another manager's reads the same). */
export const findOwnEndpoint = (
  { ports }: KitContext,
  principal: ManagerPrincipal,
  endpointId: string,
): ResultAsync<StoredWebhookEndpoint, DomainError> =>
  !isUuid(endpointId)
    ? errAsync(webhookEndpointNotFound(endpointId))
    : ports.webhookEndpoints
        .find(principal.managerId, endpointId)
        .andThen((endpoint) => (endpoint === null ? err(webhookEndpointNotFound(endpointId)) : ok(endpoint)));

/** Registering, reading, rotating and removing a manager's webhook endpoints. */
export const createWebhookEndpointOperations = (ctx: KitContext): WebhookEndpointOperations => {
  const { ports, options } = ctx;
  const now = () => ports.clock.now();

  const rotate = (
    principal: ManagerPrincipal,
    endpointId: string,
    overlapMs: number,
    attemptsLeft: number,
  ): ResultAsync<{ secret: string; previousSecretExpiresAt: string | null }, DomainError> =>
    findOwnEndpoint(ctx, principal, endpointId).andThen((endpoint) => {
      const secret = newWebhookSecret();
      const { secrets, previousSecretExpiresAt } = rotatedSecrets(endpoint, secret, now(), overlapMs);
      return ports.webhookEndpoints
        .replaceSecrets(principal.managerId, endpointId, endpoint.secrets, secrets)
        .andThen(
          (
            replaced,
          ): ResultAsync<{ secret: string; previousSecretExpiresAt: string | null }, DomainError> => {
            if (replaced) return okAsync({ secret, previousSecretExpiresAt });
            return attemptsLeft > 1
              ? rotate(principal, endpointId, overlapMs, attemptsLeft - 1)
              : errAsync(webhookEndpointNotFound(endpointId));
          },
        );
    });

  return {
    createEndpoint: (principal, body, context) => {
      const parsed = parseRequest(webhookEndpointCreateBodySchema, body);
      if (parsed.isErr()) return errAsync(parsed.error);
      const url = checkWebhookEndpointUrl(parsed.value.url, {
        allowPrivateNetworks: options.webhookAllowPrivateNetworks,
      });
      if (url.isErr()) return errAsync(validationFailed('The request body is invalid', { url: [url.error] }));
      const secret = newWebhookSecret();
      const endpoint: StoredWebhookEndpoint = {
        id: ports.ids.uuid(),
        managerId: principal.managerId,
        url: url.value,
        description: parsed.value.description ?? null,
        eventTypes: parsed.value.eventTypes ?? null,
        createdAt: now().toISOString(),
        secrets: [{ secret, expiresAt: null }],
      };
      return runCommand(ctx, context, () =>
        ports.webhookEndpoints
          .insertWithinLimit(endpoint, options.maxWebhookEndpointsPerManager)
          .andThen((inserted) =>
            inserted
              ? ok(undefined)
              : err(webhookEndpointLimitReached(options.maxWebhookEndpointsPerManager)),
          )
          // Shown this once (and replayed to a retry with the same Idempotency-Key).
          .map(() => ({ ...toWebhookEndpointResponse(endpoint, now()), secret })),
      );
    },
    listEndpoints: (principal) =>
      ports.webhookEndpoints.listForManager(principal.managerId).map((endpoints) => ({
        data: endpoints.map((endpoint) => toWebhookEndpointResponse(endpoint, now())),
      })),
    getEndpoint: (principal, endpointId) =>
      findOwnEndpoint(ctx, principal, endpointId).map((endpoint) =>
        toWebhookEndpointResponse(endpoint, now()),
      ),
    deleteEndpoint: (principal, endpointId, context) =>
      runCommand(ctx, context, () =>
        findOwnEndpoint(ctx, principal, endpointId).andThen((endpoint) =>
          ports.webhookEndpoints
            .remove(principal.managerId, endpointId)
            .andThen((removed) =>
              removed
                ? ok(toWebhookEndpointResponse(endpoint, now()))
                : err(webhookEndpointNotFound(endpointId)),
            ),
        ),
      ),
    rotateSecret: (principal, endpointId, body, context) => {
      const parsed = parseRequest(webhookSecretRotationBodySchema, body ?? {});
      if (parsed.isErr()) return errAsync(parsed.error);
      const overlapMs =
        parsed.value.overlapSeconds === undefined
          ? options.webhookSecretOverlapMs
          : parsed.value.overlapSeconds * 1000;
      return runCommand(ctx, context, () => rotate(principal, endpointId, overlapMs, ROTATION_ATTEMPTS));
    },
  };
};
