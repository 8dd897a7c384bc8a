import { z } from 'zod';
import { cursorParameterSchema } from '../pagination/page-cursor.js';
import { dateTimeSchema } from './client-response.js';
import { pageSizeSchema } from './page-size.js';

/** What an audit entry records (decisions §10): a change of a client, or download links issued. */
export const auditActions = [
  'create',
  'resubmit',
  'approve',
  'request-resubmission',
  'terms-signed',
  'delete',
  'redact',
  'screening-resolution',
  /** A screening job (or monitoring) wrote a result, a failure or new hits on the client, as `system`. */
  'screening-result',
  'download-links-issued',
  'assign',
  'release',
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditActorKinds = ['manager', 'client', 'compliance', 'system'] as const;

/** Who made the change: the principal's identity (manager, client or compliance id), or `system` for jobs. */
export const auditActorSchema = z.object({ kind: z.enum(auditActorKinds), id: z.string() });
export type AuditActor = z.infer<typeof auditActorSchema>;

/** One payload field that differs, at its JSON path (as in `parameterErrors`); null where it was or is absent. */
export const auditChangeSchema = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    clientId: z.uuid(),
    action: auditActionSchema,
    actor: auditActorSchema,
    /** The request id the host gave the request (`X-Request-Id`), null for in-process calls without one. */
    requestId: z.string().nullable(),
    at: dateTimeSchema,
    changes: z.array(auditChangeSchema),
    /** The document keys whose download links were issued (`download-links-issued` only). */
    documents: z.array(z.string()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Query of `GET /clients/{clientId}/audit`: a page size of 1..100 (default 20), an opaque cursor. */
export const auditListQuerySchema = z.strictObject({
  limit: pageSizeSchema,
  cursor: cursorParameterSchema.optional(),
});
export type AuditListQueryInput = z.input<typeof auditListQuerySchema>;

export const auditListResponseSchema = z
  .object({ data: z.array(auditEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditTrail' });
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/**
 * Why a link of a client's audit chain does not hold: `CHAIN_BROKEN` (an entry removed, inserted or
 * moved: its sequence or previous hash is not the entry's before it), `ENTRY_ALTERED` (a field but
 * `changes` differs from what was hashed), `CHANGES_ALTERED` (the changes differ from their digest,
 * or hold redacted values on a client that was not redacted), `BACKDATED` (dated more than five
 * minutes before the entry before it).
 */
export const auditChainBreakReasons = [
  'CHAIN_BROKEN',
  'ENTRY_ALTERED',
  'CHANGES_ALTERED',
  'BACKDATED',
] as const;
export type AuditChainBreakReason = (typeof auditChainBreakReasons)[number];

/** Answer of `GET /compliance/v1/clients/{clientId}/audit/verification`. */
export const auditVerificationSchema = z
  .object({
    clientId: z.uuid(),
    /** True when every entry's link holds, from the first to the last. */
    verified: z.boolean(),
    /** How many entries were checked: all of them when verified, else up to the first broken one. */
    checkedEntries: z.number().int().nonnegative(),
    /** The hash of the client's last entry (null without entries): record it elsewhere to detect a rewritten chain later. */
    lastHash: z.string().nullable(),
    /** The first entry whose link does not hold; null when verified. */
    firstBrokenLink: z
      .object({
        entryId: z.uuid(),
        /** The entry's place in the client's chain (1 for the first). */
        sequence: z.number().int().positive(),
        reason: z.enum(auditChainBreakReasons),
      })
      .nullable(),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.infer<typeof auditVerificationSchema>;
