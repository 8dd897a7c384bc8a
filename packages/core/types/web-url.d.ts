/**
 * The WHATWG URL global core uses to check webhook endpoint URLs (present in Node, Deno, Bun and
 * browsers); declared on its own, like the text-encoding globals, since core has no DOM or Node types.
 */
declare class URL {
  constructor(input: string, base?: string);
  static canParse(input: string, base?: string): boolean;
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly hash: string;
}
