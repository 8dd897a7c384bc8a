/** Source of identifiers: random UUID v4 in production, deterministic in tests. */
export interface IdGenerator {
  uuid(): string;
}

/** The kit's ids when the host gives none: the platform's random UUID v4 (Web Crypto). */
export const randomUuids: IdGenerator = { uuid: () => crypto.randomUUID() };
