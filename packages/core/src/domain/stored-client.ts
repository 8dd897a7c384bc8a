import type { Client } from '../schemas/client-response.js';
import { requirementsOf } from './client-requirements.js';

/**
 * A client as the repositories hold it: the wire Client plus the manager that owns it, without the
 * requirements, which the kit computes from the rest at every answer.
 */
export type StoredClient = Omit<Client, 'requirements'> & { readonly managerId: string };

export const toClientResponse = ({ managerId: _managerId, ...client }: StoredClient): Client => ({
  ...client,
  requirements: requirementsOf(client),
});
