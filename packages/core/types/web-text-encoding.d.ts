/**
 * The two WHATWG text-encoding globals core uses (present in Node, Deno, Bun and browsers). Core is
 * compiled without Node's types, so that nothing Node-only slips in; these are declared on their own.
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
