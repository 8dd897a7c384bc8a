import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { isUuid } from '../domain/uuid.js';
import { clientNotFound, type DomainError } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { auditPositionCursor } from '../pagination/page-cursor.js';
import type { CompliancePrincipal, ManagerPrincipal } from '../principal.js';
import { type AuditListResponse, auditListQuerySchema } from '../schemas/audit.js';
import { parseRequest } from '../validation/parse-request.js';

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
}

export const createAuditTrailService = ({ ports }: KitContext): AuditTrailService => ({
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
