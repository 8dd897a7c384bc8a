/**
 * The portal's own logger: one JSON object per line, with levels and child bindings (the shape of
 * pino or winston, without the dependency). The kit writes through it too, so every line of a
 * request carries the same `requestId`.
 */
export type PortalLogger = {
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
  child(bindings: Readonly<Record<string, unknown>>): PortalLogger;
};

/** An Error is written as its name and message (a stack or a driver's internals never leave it). */
const serializable = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message } : value;

export const createJsonLinesLogger = (
  write: (line: string) => void = (line) => process.stdout.write(line),
  bindings: Readonly<Record<string, unknown>> = {},
): PortalLogger => {
  const log =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, details: Readonly<Record<string, unknown>> = {}) => {
      const fields = Object.fromEntries(
        Object.entries(details).map(([key, value]) => [key, serializable(value)]),
      );
      write(
        `${JSON.stringify({ time: new Date().toISOString(), level, message, ...bindings, ...fields })}\n`,
      );
    };
  return {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (more) => createJsonLinesLogger(write, { ...bindings, ...more }),
  };
};
