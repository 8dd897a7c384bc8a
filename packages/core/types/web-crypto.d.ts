/**
 * The part of the Web Crypto global core reads (present in Node 19+, Deno, Bun and browsers): the
 * kit's default id generator. Declared on its own, since core has no DOM or Node types.
 */
declare const crypto: { randomUUID(): string };
