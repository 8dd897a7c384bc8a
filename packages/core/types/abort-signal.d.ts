/**
 * The part of the WHATWG AbortSignal global core reads (present in Node, Deno, Bun and browsers): a
 * runner that stops tells the jobs it holds. Declared on its own, since core has no DOM or Node types.
 */
interface AbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
