/** Where the binding reports what it hides from response bodies (500 causes, unreachable stores). */
export type HttpLogger = {
  error(message: string, details: Readonly<Record<string, unknown>>): void;
};

export const consoleHttpLogger: HttpLogger = {
  error: (message, details) => console.error(message, details),
};
