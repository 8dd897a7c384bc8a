const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids come from URL paths: a malformed one must read as "not found", not reach a uuid column
 * and fail there as a storage error.
 */
export const isUuid = (value: string): boolean => uuidShape.test(value);
