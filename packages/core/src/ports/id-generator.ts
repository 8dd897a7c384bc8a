/** Source of identifiers: random UUID v4 in production, deterministic in tests. */
export interface IdGenerator {
  uuid(): string;
}
