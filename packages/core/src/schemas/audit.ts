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
  'download-links-issued',
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
