/**
 * The console global the kit's maintenance loop logs to when the host gives no logger (present in
 * Node, Deno, Bun and browsers); declared on its own, since core has no DOM or Node types.
 */
declare const console: {
  error(message: string, ...details: unknown[]): void;
};
