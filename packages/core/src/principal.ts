/** Who is calling, as resolved from an API key (or a host's own `authenticate`). */
export type ManagerPrincipal = { readonly kind: 'manager'; readonly managerId: string };
export type ClientPrincipal = {
  readonly kind: 'client';
  readonly clientId: string;
  readonly managerId: string;
};
export type CompliancePrincipal = { readonly kind: 'compliance'; readonly complianceId: string };
export type Principal = ManagerPrincipal | ClientPrincipal | CompliancePrincipal;
export type UploaderPrincipal = ManagerPrincipal | ClientPrincipal;

/** A stable string naming the principal: the owner of temporary files, the actor in history, the idempotency scope. */
export const principalKey = (principal: Principal): string => {
  switch (principal.kind) {
    case 'manager':
      return `manager:${principal.managerId}`;
    case 'client':
      return `client:${principal.clientId}`;
    case 'compliance':
      return `compliance:${principal.complianceId}`;
  }
};
