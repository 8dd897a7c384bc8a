import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import type { z } from 'zod';
import {
  type ClientCommandContext,
  checkTransition,
  deleteClient,
  runClientTransition,
} from '../commands/client-transition.js';
import { promoteDocumentsAround } from '../commands/document-promotion.js';
import {
  type CommandStores,
  type IdempotentCommandContext,
  runCommand,
} from '../commands/idempotent-command.js';
import { auditActorOf, auditChanges } from '../domain/audit-entry.js';
import {
  entityOnboardingInformation,
  historyEntry,
  individualOnboardingInformation,
  type OnboardingInformation,
  type StoredClient,
  toClientResponse,
} from '../domain/client.js';
import { eventsOfCommand } from '../domain/client-events.js';
import { initialScreening, rescreening } from '../domain/screening.js';
import { clientNotFound, type DomainError, type ValidationFailed, validationFailed } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { createdAtAndIdCursor } from '../pagination/page-cursor.js';
import { type ManagerPrincipal, principalKey } from '../principal.js';
import { clientListQuerySchema } from '../schemas/client-list-query.js';
import type {
  Client,
  ClientListResponse,
  ClientType,
  StatusHistoryEntry,
} from '../schemas/client-response.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';

export interface ClientService {
  createIndividual(
    principal: ManagerPrincipal,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  createEntity(
    principal: ManagerPrincipal,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  resubmitIndividual(
    principal: ManagerPrincipal,
    clientId: string,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  resubmitEntity(
    principal: ManagerPrincipal,
    clientId: string,
    payload: unknown,
    context?: IdempotentCommandContext,
  ): ResultAsync<Client, DomainError>;
  get(principal: ManagerPrincipal, clientId: string): ResultAsync<Client, DomainError>;
  /** `query` is the raw query string object: status, clientType, limit, cursor. */
  list(principal: ManagerPrincipal, query: unknown): ResultAsync<ClientListResponse, DomainError>;
  /** `context.expectedVersion`: the version of the client the manager decided on (`ClientChanged` else). */
  delete(
    principal: ManagerPrincipal,
    clientId: string,
    context?: ClientCommandContext,
  ): ResultAsync<Client, DomainError>;
  statusHistory(
    principal: ManagerPrincipal,
    clientId: string,
  ): ResultAsync<StatusHistoryEntry[], DomainError>;
}

type ToOnboardingInformation<P> = (
  payload: P,
  stamp: { newId: () => string; at: string },
) => OnboardingInformation;

/** Client fields in the order of the spec's Client (2.1), so responses read like the spec. */
const storedClient = (
  base: Pick<
    StoredClient,
    'id' | 'managerId' | 'status' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'assignee'
  >,
  info: OnboardingInformation,
  onboardingResubmissionReason: string | null,
  screening: StoredClient['screening'],
): StoredClient => ({
  id: base.id,
  status: base.status,
  clientType: info.clientType,
  company: info.company,
  companyRepresentatives: info.companyRepresentatives,
  companyDirectorsAndUbos: info.companyDirectorsAndUbos,
  individualProfile: info.individualProfile,
  individualSourceOfFunds: info.individualSourceOfFunds,
  onboardingResubmissionReason,
  // A created or resubmitted client is under review: nothing asked of it, no terms signed yet.
  resubmissionRequirements: null,
  bankAccounts: info.bankAccounts,
  blockchainWallets: info.blockchainWallets,
  termsAcceptance: null,
  screening,
  createdAt: base.createdAt,
  updatedAt: base.updatedAt,
  deletedAt: base.deletedAt,
  redactedAt: null,
  // A resubmitted client stays with the reviewer who had it.
  assignee: base.assignee,
  managerId: base.managerId,
});

const DATE_OF_BIRTH_IN_FUTURE_MESSAGE = 'Must not be in the future';

/**
 * The last date of birth a person can have at `now`: tomorrow in UTC, as it is already tomorrow
 * somewhere (a child born today east of UTC), so no time zone's today is refused.
 */
const latestDateOfBirth = (now: Date): string =>
  new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);

type People = {
  readonly profile?: unknown;
  readonly representatives?: unknown;
  readonly companyDirectorsAndUbos?: { readonly directors?: unknown; readonly ubos?: unknown };
};

/**
 * The dates of birth of a parsed onboarding payload later than `latest` (`YYYY-MM-DD`), as
 * parameter errors at their paths (`representatives[1].dateOfBirth`); undefined when there is none.
 * A date in the future names nobody yet, and would only turn the screening's evidence into a
 * mismatch with every listed person.
 */
const datesOfBirthAfter = (payload: unknown, latest: string): Record<string, string[]> | undefined => {
  let errors: Record<string, string[]> | undefined;
  const check = (person: unknown, path: string) => {
    const date = (person as { readonly dateOfBirth?: unknown } | null | undefined)?.dateOfBirth;
    if (typeof date === 'string' && date > latest) {
      errors ??= {};
      errors[`${path}.dateOfBirth`] = [DATE_OF_BIRTH_IN_FUTURE_MESSAGE];
    }
  };
  const checkEach = (people: unknown, path: string) => {
    if (!Array.isArray(people)) return;
    for (const [at, person] of people.entries()) check(person, `${path}[${at}]`);
  };
  const { profile, representatives, companyDirectorsAndUbos } = (payload ?? {}) as People;
  check(profile, 'profile');
  checkEach(representatives, 'representatives');
  checkEach(companyDirectorsAndUbos?.directors, 'companyDirectorsAndUbos.directors');
  checkEach(companyDirectorsAndUbos?.ubos, 'companyDirectorsAndUbos.ubos');
  return errors;
};

export const createClientService = (ctx: KitContext): ClientService => {
  const { ports } = ctx;
  // Every create and resubmit is screened, on the job engine, when the kit has a provider.
  const screens = ports.screening !== undefined;
  const ownedBy = (principal: ManagerPrincipal) => (client: StoredClient) =>
    client.managerId === principal.managerId;
  /** The payload as its schema parses it, with no date of birth after the kit's today. */
  const parseOnboarding = <S extends z.ZodType>(
    schema: S,
    payload: unknown,
  ): Result<z.infer<S>, ValidationFailed> =>
    parseRequest(schema, payload).andThen((parsed): Result<z.infer<S>, ValidationFailed> => {
      const future = datesOfBirthAfter(parsed, latestDateOfBirth(ports.clock.now()));
      return future === undefined ? ok(parsed) : err(validationFailed('The request body is invalid', future));
    });

  const create = <S extends z.ZodType>(
    principal: ManagerPrincipal,
    schema: S,
    toInformation: ToOnboardingInformation<z.infer<S>>,
    payload: unknown,
    command: IdempotentCommandContext | undefined,
  ): ResultAsync<Client, DomainError> => {
    const owner = principalKey(principal);
    return runCommand(ctx, command, (transaction) => {
      const parsed = parseOnboarding(schema, payload);
      if (parsed.isErr()) return errAsync(parsed.error);
      return promoteDocumentsAround(ctx, owner, parsed.value, ({ payload: withKeys, documentRecords }) => {
        const at = ports.clock.now().toISOString();
        const stamp = { newId: () => ports.ids.uuid(), at };
        const client = storedClient(
          {
            id: ports.ids.uuid(),
            managerId: principal.managerId,
            status: 'ONBOARDING_UNDER_REVIEW',
            createdAt: at,
            updatedAt: at,
            deletedAt: null,
            assignee: null,
          },
          toInformation(withKeys, stamp),
          null,
          initialScreening(screens),
        );
        const response = toClientResponse(client);
        const documents = documentRecords(client.id, client.managerId);
        // One async function rather than a chain of andThen: each link of a chain is a promise job
        // and an object more, a cost every create paid (docs/performance.md).
        const write = async (tx: CommandStores): Promise<Result<Client, DomainError>> => {
          // Asked for all at once, read in order: none needs another's answer, so an adapter whose
          // driver pipelines sends them together (one round trip on PostgreSQL), and the first
          // failure in this order is the one reported (those after it fail with its transaction).
          const written = [
            tx.clients.insert(client, historyEntry(null, client.status, owner, at)),
            documents.length > 0 ? tx.documents.insertMany(documents) : okAsync(undefined),
            screens ? tx.screeningJobs.enqueueScreening(client.id) : okAsync(undefined),
            tx.events.append(
              eventsOfCommand(
                'CREATE',
                client,
                documents.map((document) => document.key),
                stamp,
              ),
            ),
            tx.audit.append([
              {
                id: ports.ids.uuid(),
                clientId: client.id,
                action: 'create',
                actor: auditActorOf(principal),
                at,
                changes: auditChanges(null, client),
                documents: [],
              },
            ]),
          ];
          for (const pending of written) {
            const outcome = await pending;
            if (outcome.isErr()) return err(outcome.error);
          }
          return ok(response);
        };
        return transaction((tx) => new ResultAsync(write(tx)));
      });
    });
  };

  const resubmit = <S extends z.ZodType>(
    principal: ManagerPrincipal,
    clientId: string,
    clientType: ClientType,
    schema: S,
    toInformation: ToOnboardingInformation<z.infer<S>>,
    payload: unknown,
    command: IdempotentCommandContext | undefined,
  ): ResultAsync<Client, DomainError> => {
    const owner = principalKey(principal);
    const transition = {
      clientId,
      trigger: 'RESUBMIT',
      actor: auditActorOf(principal),
      visibleTo: ownedBy(principal),
      expectedType: clientType,
    } as const;
    return runCommand(ctx, command, (transaction) => {
      const parsed = parseOnboarding(schema, payload);
      if (parsed.isErr()) return errAsync(parsed.error);
      // Checked once before any file is copied, and again under the lock inside the transaction.
      return (isUuid(clientId) ? ports.clients.findById(clientId) : okAsync(null))
        .andThen((client) => {
          const checked = checkTransition(transition, client);
          return checked.isErr() ? errAsync(checked.error) : okAsync(undefined);
        })
        .andThen(() =>
          promoteDocumentsAround(ctx, owner, parsed.value, ({ payload: withKeys, documentRecords }) =>
            runClientTransition(ctx, transaction, {
              ...transition,
              documents: documentRecords(clientId, principal.managerId),
              rescreen: screens,
              apply: (client, to, at) =>
                storedClient(
                  { ...client, status: to, updatedAt: at },
                  toInformation(withKeys, { newId: () => ports.ids.uuid(), at }),
                  null,
                  rescreening(client.screening, screens),
                ),
            }),
          ),
        );
    });
  };

  const findVisible = (
    principal: ManagerPrincipal,
    clientId: string,
  ): ResultAsync<StoredClient, DomainError> =>
    isUuid(clientId)
      ? ports.clients
          .findById(clientId)
          .andThen((client) =>
            client !== null && ownedBy(principal)(client)
              ? okAsync(client)
              : errAsync(clientNotFound(clientId)),
          )
      : errAsync(clientNotFound(clientId));

  return {
    createIndividual: (principal, payload, command) =>
      create(principal, ctx.schemas.individualPayload, individualOnboardingInformation, payload, command),
    createEntity: (principal, payload, command) =>
      create(principal, ctx.schemas.entityPayload, entityOnboardingInformation, payload, command),
    resubmitIndividual: (principal, clientId, payload, command) =>
      resubmit(
        principal,
        clientId,
        'INDIVIDUAL',
        ctx.schemas.individualPayload,
        individualOnboardingInformation,
        payload,
        command,
      ),
    resubmitEntity: (principal, clientId, payload, command) =>
      resubmit(
        principal,
        clientId,
        'ENTITY',
        ctx.schemas.entityPayload,
        entityOnboardingInformation,
        payload,
        command,
      ),

    get: (principal, clientId) => findVisible(principal, clientId).map(toClientResponse),

    list: (principal, query) => {
      const parsed = parseRequest(clientListQuerySchema, query, 'The query parameters are invalid');
      if (parsed.isErr()) return errAsync(parsed.error);
      const { status, clientType, limit, cursor } = parsed.value;
      const after = createdAtAndIdCursor.decode(cursor, 'cursor');
      if (after.isErr()) return errAsync(after.error);
      return (
        ports.clients
          .list({
            managerId: principal.managerId,
            limit: limit + 1,
            ...(status === undefined ? {} : { status }),
            ...(clientType === undefined ? {} : { clientType }),
            ...(after.value === undefined ? {} : { after: after.value }),
          })
          // andThen with a synchronous Result, not map: neverthrow's map awaits through a generator,
          // which made young-generation GC promote large lists (see the preset fee list).
          .andThen((clients) => {
            const page = clients.slice(0, limit);
            const last = page.at(-1);
            return ok({
              data: page.map(toClientResponse),
              nextCursor: clients.length > limit && last ? createdAtAndIdCursor.encode(last) : null,
            });
          })
      );
    },

    delete: (principal, clientId, command) =>
      deleteClient(ctx, command, principal, clientId, ownedBy(principal)),

    statusHistory: (principal, clientId) =>
      findVisible(principal, clientId).andThen((client) => ports.clients.statusHistory(client.id)),
  };
};
