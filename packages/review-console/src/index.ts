/**
 * @onboarding-kit/review-console — the compliance team's review console: server-rendered pages a
 * host mounts into Express behind its own staff authentication.
 */
export { createReviewConsole, type ReviewConsoleOptions } from './create-review-console.js';
export { CONSOLE_CONTENT_SECURITY_POLICY } from './security-headers.js';
export type { Reviewer, ReviewerOf } from './reviewer.js';
