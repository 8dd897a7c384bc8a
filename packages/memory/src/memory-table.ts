/**
 * One table of rows by key, as one write or transaction sees it: the committed rows, read through
 * its own changes, which are kept aside until `commit` writes them in. A read outside any write
 * sees the committed rows alone. Lists scan the rows: the memory adapter serves tests and the demo,
 * where a table holds thousands of rows, not millions (decisions §9).
 */
export class Table<Row> {
  readonly #committed: Map<string, Row>;
  /** Undefined: deleted. Made at the first write: most writes touch a few tables. */
  #changes: Map<string, Row | undefined> | undefined;

  constructor(committed: Map<string, Row>) {
    this.#committed = committed;
  }

  get(key: string): Row | undefined {
    return this.#changes?.has(key) ? this.#changes.get(key) : this.#committed.get(key);
  }

  set(key: string, row: Row): void {
    this.#changes ??= new Map();
    this.#changes.set(key, row);
  }

  delete(key: string): void {
    this.#changes ??= new Map();
    this.#changes.set(key, undefined);
  }

  /** Every row in the order it was first added (a row rewritten keeps its place). */
  *values(): Generator<Row> {
    for (const key of this.#committed.keys()) {
      const row = this.get(key);
      if (row !== undefined) yield row;
    }
    for (const [key, row] of this.#changes ?? []) {
      if (row !== undefined && !this.#committed.has(key)) yield row;
    }
  }

  /** Writes the changes into the committed rows. */
  commit(): void {
    for (const [key, row] of this.#changes ?? []) {
      if (row === undefined) this.#committed.delete(key);
      else this.#committed.set(key, row);
    }
  }
}
