import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { type ChainedAuditEntry, checkAuditChainLink } from '../domain/audit-chain.js';
import { clientNotFound, type DomainError } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { auditPositionCursor } from '../pagination/page-cursor.js';
import type { CompliancePrincipal, ManagerPrincipal } from '../principal.js';
import { type AuditListResponse, type AuditVerification, auditListQuerySchema } from '../schemas/audit.js';
import { isUuid, parseRequest } from '../validation/parse-request.js';

export interface AuditTrailService {
  /**
   * A client's audit entries, oldest first (decisions §10). A manager reads only its own clients'
   * (another manager's client is `ClientNotFound`, as for every read); compliance reads any client's.
   * `query` is the raw query string object: limit, cursor.
   */
  list(
    principal: ManagerPrincipal | CompliancePrincipal,
    clientId: string,
    query: unknown,
  ): ResultAsync<AuditListResponse, DomainError>;
  /**
   * Checks a client's whole hash chain, oldest entry first, and reports the first link that does
   * not hold (compliance only; any client, as for `list`). Reads the trail in pages.
   */
  verify(principal: CompliancePrincipal, clientId: string): ResultAsync<AuditVerification, DomainError>;
}

/** Entries read per page while verifying. */
const VERIFICATION_PAGE = 500;

export const createAuditTrailService = ({ ports, hashing }: KitContext): AuditTrailService => ({
  verify: (_principal, clientId) => {
    if (!isUuid(clientId)) return errAsync(clientNotFound(clientId));
    const walk = (
      clientRedacted: boolean,
      previous: ChainedAuditEntry | null,
      afterPosition: string | undefined,
      checked: number,
    ): ResultAsync<AuditVerification, DomainError> =>
      ports.audit
        .listForClient({
          clientId,
          limit: VERIFICATION_PAGE,
          ...(afterPosition === undefined ? {} : { afterPosition }),
        })
        .andThen((page) => {
          let last = previous;
          let count = checked;
          for (const current of page) {
            const broken = checkAuditChainLink(hashing, last, current, clientRedacted);
            if (broken !== null) {
              return okAsync({
                clientId,
                verified: false,
                checkedEntries: count + 1,
                lastHash: null,
                firstBrokenLink: broken,
              });
            }
            last = current;
            count += 1;
          }
          const end = page.at(-1);
          return page.length < VERIFICATION_PAGE || end === undefined
            ? okAsync({
                clientId,
                verified: true,
                checkedEntries: count,
                lastHash: last?.link.hash ?? null,
                firstBrokenLink: null,
              })
            : walk(clientRedacted, last, end.position, count);
        });
    return ports.clients
      .findById(clientId)
      .andThen((client) => (client === null ? errAsync(clientNotFound(clientId)) : okAsync(client)))
      .andThen((client) => walk(client.redactedAt !== null, null, undefined, 0));
  },
  list: (principal, clientId, query) => {
    const parsed = parseRequest(auditListQuerySchema, query, 'The query parameters are invalid');
    if (parsed.isErr()) return errAsync(parsed.error);
    const { limit, cursor } = parsed.value;
    const after = auditPositionCursor.decode(cursor, 'cursor');
    if (after.isErr()) return errAsync(after.error);
    if (!isUuid(clientId)) return errAsync(clientNotFound(clientId));
    return ports.clients
      .findById(clientId)
      .andThen((client) =>
        client !== null && (principal.kind === 'compliance' || client.managerId === principal.managerId)
          ? okAsync(client)
          : errAsync(clientNotFound(clientId)),
      )
      .andThen(() =>
        ports.audit.listForClient({
          clientId,
          limit: limit + 1,
          ...(after.value === undefined ? {} : { afterPosition: after.value }),
        }),
      )
      .andThen((entries) => {
        const page = entries.slice(0, limit);
        const last = page.at(-1);
        return ok({
          data: page.map(({ entry }) => entry),
          nextCursor: entries.length > limit && last ? auditPositionCursor.encode(last.position) : null,
        });
      });
  },
});
