/** The files the kit target puts in manager A's temporary storage before a create run, one per request. */
export const PRELOADED_FILE_BYTES = 1024;
export const preloadedFilename = (index: number): string => `bench-${index}.pdf`;
