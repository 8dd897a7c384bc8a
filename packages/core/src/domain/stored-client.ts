import type { Client } from '../schemas/client-response.js';

/** A client as the repositories hold it: the wire Client plus the manager that owns it. */
export type StoredClient = Client & { readonly managerId: string };

export const toClientResponse = ({ managerId: _managerId, ...client }: StoredClient): Client => client;
