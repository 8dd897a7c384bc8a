import { exampleIndividualPayload } from '@onboarding-kit/core';

/** The files the kit target puts in manager A's temporary storage before a create run, one per request. */
export const PRELOADED_FILE_BYTES = 1024;
export const preloadedFilename = (index: number): string => `bench-${index}.pdf`;

/** The example payload as JSON text naming `filename`: split once where the name goes, one concat a body. */
export const payloadWithFile = (() => {
  const marker = '@@FILE@@';
  const [head, tail] = JSON.stringify(exampleIndividualPayload({ idDocuments: [marker] })).split(marker);
  return (filename: string) => `${head}${filename}${tail}`;
})();
