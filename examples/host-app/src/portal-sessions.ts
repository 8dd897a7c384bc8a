import type { Principal } from '@onboarding-kit/core';
import { demoIdentities } from '@onboarding-kit/core';
import type { Request } from 'express';

/**
 * The portal's own sessions (a real portal keeps them in its session store): bearer tokens of
 * manager A, manager B and the compliance team, mapped to the managers the demo seed creates.
 */
export const portalSessions: ReadonlyMap<string, Principal> = new Map<string, Principal>([
  ['demo-session-manager-a', demoIdentities.managerA.principal],
  ['demo-session-manager-b', demoIdentities.managerB.principal],
  ['demo-session-compliance', demoIdentities.compliance.principal],
]);

/** The session's principal of `Authorization: Bearer <token>`, or null. */
export const sessionPrincipal = (req: Request): Principal | null => {
  const [scheme, token] = (req.get('authorization') ?? '').trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'bearer' || token === undefined) return null;
  return portalSessions.get(token) ?? null;
};
