import { type Client, clientVersion } from '@onboarding-kit/core';
import { type ValidationFailed, validationFailed } from '@onboarding-kit/core/adapter';
import type { Request } from 'express';
import { err, ok, type Result } from 'neverthrow';

// A client's version on the wire (RFC 9110): GET /clients/:clientId answers it as a strong `ETag`,
// and a route that decides on the client takes it back in `If-Match`.

export const IF_MATCH_HEADER = 'If-Match';

/** The strong entity tag of a client: its `clientVersion`, quoted. */
export const clientEtag = (client: Client): string => `"${clientVersion(client)}"`;

/** An entity tag's opaque part: `etagc` of RFC 9110, 8.8.3 (visible ASCII but `"`, and obs-text). */
const strongEntityTag = /^"([\x21\x23-\x7e\x80-\xff]*)"$/;

const refuse = (message: string): Result<never, ValidationFailed> =>
  err(validationFailed(`The ${IF_MATCH_HEADER} header is invalid`, { [IF_MATCH_HEADER]: [message] }));

/**
 * The version of the client the caller decided on, from `If-Match`: undefined when the header is
 * absent or `*` (any current version: the route runs as without it), else the one strong entity
 * tag it holds. A weak tag (`W/"…"`, never equal under the strong comparison If-Match uses) and a
 * list of several are refused (400) rather than half-honoured: send the one ETag the GET answered.
 */
export const parseIfMatchHeader = (req: Request): Result<string | undefined, ValidationFailed> => {
  const value = req.get(IF_MATCH_HEADER);
  if (value === undefined) return ok(undefined);
  const trimmed = value.trim();
  if (trimmed === '*') return ok(undefined);
  if (trimmed.startsWith('W/')) return refuse('a weak entity tag never matches: send the strong ETag');
  const tag = strongEntityTag.exec(trimmed)?.[1];
  if (tag === undefined) return refuse('send one entity tag, quoted, as the ETag header gave it');
  return ok(tag);
};
