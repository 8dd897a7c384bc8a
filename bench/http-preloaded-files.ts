import { demoIdentities, exampleIndividualPayload } from '@onboarding-kit/core';
import autocannon from 'autocannon';

/** The files the kit target puts in manager A's temporary storage before a create run, one per request. */
export const PRELOADED_FILE_BYTES = 1024;
export const preloadedFilename = (index: number): string => `bench-${index}.pdf`;

/** The example payload as JSON text naming `filename`: split once where the name goes, one concat a body. */
export const payloadWithFile = (() => {
  const marker = '@@FILE@@';
  const [head, tail] = JSON.stringify(exampleIndividualPayload({ idDocuments: [marker] })).split(marker);
  return (filename: string) => `${head}${filename}${tail}`;
})();

/**
 * Sends `amount` creates to `origin` (`kind` 'baseline': the bare route's path; else the kit's), each
 * naming the preloaded file `nextFile()` numbers; throws when any answer is not 2xx.
 */
export const sendPreloadedCreates = async (
  target: { readonly kind: string; readonly origin: string },
  amount: number,
  connections: number,
  nextFile: () => number,
): Promise<void> => {
  const path = target.kind === 'baseline' ? '/clients/individuals' : '/manager/v1/clients/individuals';
  const result = await autocannon({
    url: target.origin,
    connections,
    amount,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', SERVICE_API_KEY: demoIdentities.managerA.apiKey },
        setupRequest: (req) => ({ ...req, body: payloadWithFile(preloadedFilename(nextFile())) }),
      },
    ],
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${target.kind}: ${failed} of ${amount} requests failed`);
};
