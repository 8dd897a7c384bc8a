const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Identifiers are UUIDs, and ids reach the kit from URL paths: anything else cannot name a
 * resource, so it is "not found" without a lookup (and never reaches a uuid column as an error).
 */
export const isUuid = (value: string): boolean => uuidPattern.test(value);
