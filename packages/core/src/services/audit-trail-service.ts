import { errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { type ChainedAuditEntry, checkAuditChainLink } from '../domain/audit-chain.js';
import { auditSealBreak } from '../domain/audit-seal.js';
import { clientNotFound, type DomainError } from '../errors.js';
import type { KitContext } from '../kit-context.js';
import { auditPositionCursor } from '../pagination/page-cursor.js';
import type { CompliancePrincipal, ManagerPrincipal } from '../principal.js';
import {
  type AuditChainBreakReason,
  type AuditListResponse,
  type AuditVerification,
  auditListQuerySchema,
  auditVerificationQuerySchema,
} from '../schemas/audit.js';
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
   * not hold (compliance only; any client, as for `list`). Reads the trail in pages. With the
   * kit's `auditSealing`, each entry's seal is checked too; `query` may carry an anchor kept
   * earlier (`anchorSequence`, `anchorHash`: a `head` this answered), which the trail must still
   * hold at that sequence. Unsealed entries up to a holding anchor pass: it vouches for them.
   */
  verify(
    principal: CompliancePrincipal,
    clientId: string,
    query?: unknown,
  ): ResultAsync<AuditVerification, DomainError>;
}

/** Entries read per page while verifying. */
const VERIFICATION_PAGE = 500;

export const createAuditTrailService = ({ ports, hashing }: KitContext): AuditTrailService => ({
  verify: (_principal, clientId, query = {}) => {
    const parsed = parseRequest(auditVerificationQuerySchema, query, 'The query parameters are invalid');
    if (parsed.isErr()) return errAsync(parsed.error);
    const { anchorSequence, anchorHash } = parsed.value;
    const anchor =
      anchorSequence === undefined || anchorHash === undefined
        ? null
        : { sequence: anchorSequence, hash: anchorHash };
    if (!isUuid(clientId)) return errAsync(clientNotFound(clientId));
    const sealing = ports.auditSealing ?? null;
    const answer = (
      checkedEntries: number,
      last: ChainedAuditEntry | null,
      firstBrokenLink: AuditVerification['firstBrokenLink'],
    ): AuditVerification => {
      const head = firstBrokenLink === null && last !== null ? last.link : null;
      return {
        clientId,
        verified: firstBrokenLink === null,
        checkedEntries,
        lastHash: head?.hash ?? null,
        head: head === null ? null : { sequence: head.sequence, hash: head.hash },
        sealsChecked: sealing !== null,
        anchor,
        firstBrokenLink,
      };
    };
    /** Why `current` does not hold beyond its chain link: its seal, then the anchor. */
    const sealOrAnchorBreak = ({ link }: ChainedAuditEntry): AuditChainBreakReason | null => {
      const vouched = anchor !== null && link.sequence <= anchor.sequence && link.seal === null;
      const sealBroken = sealing === null || vouched ? null : auditSealBreak(sealing, link.seal, link.hash);
      if (sealBroken !== null) return sealBroken;
      return anchor !== null && link.sequence === anchor.sequence && link.hash !== anchor.hash
        ? 'ANCHOR_MISMATCH'
        : null;
    };
    // `erased`: the first entry whose salt is gone since the trail's last `redact` entry. Redaction
    // appends that entry in the transaction that erases the salts, so a trail erased without one
    // (the serving role marking a client redacted and sending redaction's UPDATE itself) does not
    // verify; its forged `redact` entry is `UNSEALED` with sealing keys.
    const walk = (
      clientRedacted: boolean,
      previous: ChainedAuditEntry | null,
      afterPosition: string | undefined,
      checked: number,
      erased: ChainedAuditEntry | null,
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
          let erasedSince = erased;
          for (const current of page) {
            const linkBroken = checkAuditChainLink(hashing, last, current, clientRedacted);
            const reason = linkBroken?.reason ?? sealOrAnchorBreak(current);
            if (reason !== null) {
              const { entry, link } = current;
              return okAsync(answer(count + 1, last, { entryId: entry.id, sequence: link.sequence, reason }));
            }
            last = current;
            count += 1;
            if (current.entry.action === 'redact') erasedSince = null;
            else if (current.link.changesSalt === null) erasedSince ??= current;
          }
          const end = page.at(-1);
          if (page.length === VERIFICATION_PAGE && end !== undefined) {
            return walk(clientRedacted, last, end.position, count, erasedSince);
          }
          if (erasedSince !== null) {
            const { entry, link } = erasedSince;
            return okAsync(
              answer(count, last, { entryId: entry.id, sequence: link.sequence, reason: 'CHANGES_ALTERED' }),
            );
          }
          return okAsync(
            anchor !== null && count < anchor.sequence
              ? answer(count, last, { entryId: null, sequence: anchor.sequence, reason: 'TAIL_MISSING' })
              : answer(count, last, null),
          );
        });
    return ports.clients
      .findById(clientId)
      .andThen((client) => (client === null ? errAsync(clientNotFound(clientId)) : okAsync(client)))
      .andThen((client) => walk(client.redactedAt !== null, null, undefined, 0, null));
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
