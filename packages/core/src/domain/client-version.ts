import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type ClientChanged, clientChanged } from '../errors.js';
import type { Client } from '../schemas/client-response.js';
import { canonicalJson } from './canonical-json.js';
import { type StoredClient, toClientResponse } from './client.js';

/**
 * The version of a client as a reviewer sees it: SHA-256 (hex) of the canonical JSON of its answer
 * (`Client`, without `managerId`). A hash of what is shown, not `updatedAt`: a screening result, a
 * hit's decision and an assignment change what a reviewer sees without moving `updatedAt`, and two
 * writes in one millisecond (or under a stopped test clock) share one `updatedAt`.
 */
export const clientVersion = (client: Client): string => {
  const { managerId: _managerId, ...shown } = client as Client & { readonly managerId?: string };
  // A Client is plain JSON, a few levels deep: canonicalJson cannot fail on it.
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(shown).unwrapOr(JSON.stringify(shown)))));
};

/**
 * ClientChanged when the caller decided on another version of this client than the one locked in
 * the command's transaction; undefined when it did not say (`expected` absent) or saw this one.
 */
export const refuseChangedClient = (
  expected: string | undefined,
  client: StoredClient,
): ClientChanged | undefined =>
  expected === undefined || expected === clientVersion(toClientResponse(client))
    ? undefined
    : clientChanged(client.id);
