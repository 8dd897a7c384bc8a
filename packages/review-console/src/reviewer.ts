import type { CompliancePrincipal } from '@onboarding-kit/core';
import type { Request } from 'express';

/** The reviewer the host's authentication resolved for a request: the actor of every console action. */
export type Reviewer = { readonly id: string; readonly name?: string };

/** What the host tells the console about a request it let through (undefined: not a reviewer). */
export type ReviewerOf = (req: Request) => Reviewer | undefined;

export const reviewerPrincipal = (reviewer: Reviewer): CompliancePrincipal => ({
  kind: 'compliance',
  complianceId: reviewer.id,
});
