import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type ClientChanged, clientChanged } from '../errors.js';
import type { Client } from '../schemas/client-response.js';
import { type StoredClient, toClientResponse } from './client.js';

/** Objects with their keys sorted: one text for one client, whatever order a store gave its keys in. */
const sortedKeys = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/**
 * The version of a client as a reviewer sees it: SHA-256 (hex) of its answer (`Client`, without
 * `managerId`) as JSON with sorted keys. A hash of what is shown, not `updatedAt`: two writes in
 * one millisecond (or under a stopped test clock) share one `updatedAt`.
 */
export const clientVersion = (client: Client): string => {
  const { managerId: _managerId, ...shown } = client as Client & { readonly managerId?: string };
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(shown, sortedKeys))));
};

/**
 * ClientChanged when the caller decided on another version of this client than the one locked in
 * the command's transaction; undefined when it saw this one. Callers skip it when no version was
 * given, so that a command without one runs no code of this file.
 */
export const refuseChangedClient = (expected: string, client: StoredClient): ClientChanged | undefined =>
  expected === clientVersion(toClientResponse(client)) ? undefined : clientChanged(client.id);

/**
 * `next` dated `at` when its answer differs from `before`'s, else with `before`'s `updatedAt`: the
 * spec's `updatedAt` is the client's last update date, and a write that changes nothing the client
 * answers (a screening failure repeated by a retry) is not one.
 */
export const datedIfChanged = (before: StoredClient, next: StoredClient, at: string): StoredClient => {
  const kept = { ...next, updatedAt: before.updatedAt };
  return clientVersion(toClientResponse(kept)) === clientVersion(toClientResponse(before))
    ? kept
    : { ...next, updatedAt: at };
};
