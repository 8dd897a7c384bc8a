import { timingSafeEqual } from 'node:crypto';
import { demoIdentities } from '@onboarding-kit/core';
import type { Reviewer } from '@onboarding-kit/review-console';
import type { NextFunction, Request, Response } from 'express';

/**
 * The demo's one staff account, in front of the review console at /review. Public like the demo's
 * API keys (the demo answers on the loopback interface unless told otherwise); the reviewer is the
 * demo's compliance officer, so the console's actions and the compliance key's share an actor.
 */
export const demoStaff = {
  username: 'reviewer',
  password: 'demo-review-password',
  reviewer: { id: demoIdentities.compliance.principal.complianceId, name: 'Demo reviewer' },
} as const;

const sameText = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Who logged in, when the request's HTTP Basic credentials are the demo staff's (else undefined). */
const staffOf = (req: Request): Reviewer | undefined => {
  const [scheme, encoded] = (req.get('authorization') ?? '').split(' ');
  if (scheme !== 'Basic' || encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return sameText(username, demoStaff.username) && sameText(password, demoStaff.password)
    ? demoStaff.reviewer
    : undefined;
};

/**
 * The host's staff login the console sits behind (HTTP Basic: the browser asks once): a request
 * without the staff's credentials answers 401 and never reaches the console.
 */
export const requireDemoStaff = (req: Request, res: Response, next: NextFunction): void => {
  const reviewer = staffOf(req);
  if (reviewer === undefined) {
    res
      .status(401)
      .setHeader('WWW-Authenticate', 'Basic realm="onboarding-kit demo review console", charset="UTF-8"')
      .setHeader('Cache-Control', 'no-store')
      .type('text/plain')
      .send('Log in as the demo reviewer (README: "The review console").');
    return;
  }
  res.locals.reviewer = reviewer;
  next();
};

/** What the console is told about a request the login let through (what `requireDemoStaff` set). */
export const demoReviewerOf = (req: Request): Reviewer | undefined =>
  req.res?.locals.reviewer as Reviewer | undefined;

/** The demo's directory of managers, by id: what a host's own user table would answer. */
export const demoManagerNames = (managerIds: readonly string[]): Record<string, string> => {
  const known: Record<string, string> = {
    [demoIdentities.managerA.principal.managerId]: 'Manager A',
    [demoIdentities.managerB.principal.managerId]: 'Manager B',
  };
  return Object.fromEntries(managerIds.flatMap((id) => (known[id] === undefined ? [] : [[id, known[id]]])));
};
