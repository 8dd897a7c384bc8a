import { Readable } from 'node:stream';
import type { ScreeningProvider } from '@onboarding-kit/core/adapter';
import { createListScreeningProvider, loadSanctionsList } from '@onboarding-kit/screening-list';

/**
 * The list screening of @onboarding-kit/screening-list over a two-line sanctions list naming the
 * example individual and the example entity's director: each client of the flow gets real hits,
 * with the matcher's explanation and the listed entry.
 */
export const exampleListScreening = async (): Promise<ScreeningProvider> => {
  const csv = [
    'id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change',
    'tx-durand,Person,Camille DURAND,,1979-02-03,fr,,,"Test programme",,,TX-1,Test Sanctions List,2024-01-01T00:00:00,2026-01-01T00:00:00,2025-06-01T00:00:00',
    'tx-martin,Person,Hélène MARTIN,,1965-07-08,fr,,,"Test programme",,,TX-2,Test Sanctions List,2024-01-01T00:00:00,2026-01-01T00:00:00,2025-06-01T00:00:00',
  ].join('\n');
  const loaded = await loadSanctionsList(Readable.from([csv]));
  if (loaded.isErr()) throw new Error(`test list unreadable: ${loaded.error.reason}`);
  return createListScreeningProvider({ list: loaded.value, threshold: 80 });
};
