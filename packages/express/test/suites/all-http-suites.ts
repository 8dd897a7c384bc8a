import { describeApiDocs } from './api-docs.js';
import { describeAuditTrail } from './audit-trail.js';
import { describeBoundedAnswers } from './bounded-answers.js';
import { describeComplianceReviewDepth } from './compliance-review-depth.js';
import { describeHostileRequests } from './hostile-requests.js';
import { describeHttpErrors } from './http-errors.js';
import { describeIdempotency } from './idempotency.js';
import { describeInFlightBodies } from './in-flight-bodies.js';
import { describeInterfaceRoutes } from './interface-routes.js';
import { describeManagerIsolation } from './manager-isolation.js';
import { describeMountOnboardingKit } from './mount-onboarding-kit.js';
import { describeRedaction } from './redaction.js';
import { describeScreening } from './screening.js';
import { describeScreeningCoverage } from './screening-coverage.js';
import { describeScreeningEvidence } from './screening-evidence.js';
import { describeSignedLinkLimit, describeSignedLinks } from './signed-links.js';
import { describeUnreachableIdempotencyStore } from './unreachable-idempotency-store.js';

/** Every HTTP suite, run once per Express major by the entry files. */
export const describeAllHttpSuites = () => {
  describeInterfaceRoutes();
  describeComplianceReviewDepth();
  describeScreening();
  describeScreeningCoverage();
  describeScreeningEvidence();
  describeManagerIsolation();
  describeAuditTrail();
  describeRedaction();
  describeHttpErrors();
  describeIdempotency();
  describeUnreachableIdempotencyStore();
  describeSignedLinks();
  describeSignedLinkLimit();
  describeApiDocs();
  describeHostileRequests();
  describeMountOnboardingKit();
  describeBoundedAnswers();
  describeInFlightBodies();
};
