import type { Client } from '@onboarding-kit/core';

/** The client's onboarding information under the payload's names (as `field` paths name them). */
export const payloadView = (client: Client): Record<string, unknown> =>
  client.clientType === 'INDIVIDUAL'
    ? {
        profile: client.individualProfile,
        sourceOfFunds: client.individualSourceOfFunds,
        bankAccounts: client.bankAccounts,
        blockchainWallets: client.blockchainWallets,
      }
    : {
        company: client.company,
        representatives: client.companyRepresentatives,
        companyDirectorsAndUbos: client.companyDirectorsAndUbos,
        bankAccounts: client.bankAccounts,
        blockchainWallets: client.blockchainWallets,
      };

/** Fields the kit stamps on rows: not the manager's to resubmit. */
const stamped = new Set(['id', 'createdAt', 'updatedAt', 'deletedAt']);

/**
 * Every field of the client's own payload a resubmission can name, as a JSON path (`profile.email`,
 * `profile.idDocuments[0]`, `bankAccounts[1].identifiers`): the reviewer picks from what the client
 * sent, and the kit still checks the path against the payload's schema.
 */
export const payloadFieldPaths = (client: Client): string[] => {
  const paths: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      if (value.length === 0) paths.push(path);
      value.forEach((item, index) => {
        walk(item, `${path}[${index}]`);
      });
    } else if (typeof value === 'object' && value !== null) {
      paths.push(path);
      for (const [name, field] of Object.entries(value)) {
        if (!stamped.has(name)) walk(field, `${path}.${name}`);
      }
    } else {
      paths.push(path);
    }
  };
  for (const [name, value] of Object.entries(payloadView(client))) if (value !== null) walk(value, name);
  return paths;
};
