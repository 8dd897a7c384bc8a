import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ResultAsync } from 'neverthrow';

/** One row of an OpenSanctions `targets.simple.csv`, reduced to what screening reads. */
export type ListTarget = {
  readonly id: string;
  /** The FollowTheMoney schema: `Person`, `Organization`, `Company`, `LegalEntity`, `Vessel`… */
  readonly schema: string;
  readonly name: string;
  readonly aliases: readonly string[];
  /** The datasets (lists) that name this target, e.g. `US OFAC Specially Designated Nationals (SDN) List`. */
  readonly datasets: readonly string[];
  /** ISO 3166-1 alpha-2 codes (`countries`, optional column), as the list gives them. */
  readonly countries: readonly string[];
  /** Birth dates (`birth_date`, optional column), as the list gives them: `1961-04-12`, `1955`. */
  readonly birthDates: readonly string[];
};

/** The file could not be read as a targets.simple.csv: a CSV error, or a required column missing. */
export type SanctionsListUnreadable = {
  readonly type: 'SanctionsListUnreadable';
  readonly reason: string;
};

const REQUIRED_COLUMNS = ['id', 'schema', 'name', 'aliases', 'dataset'] as const;

/** Multi-valued cells of targets.simple.csv are joined with `;`. */
const values = (cell: string | undefined): string[] =>
  (cell ?? '')
    .split(';')
    .map((value) => value.trim())
    .filter((value) => value !== '');

const unreadable = (reason: string): SanctionsListUnreadable => ({ type: 'SanctionsListUnreadable', reason });

/**
 * Reads a targets.simple.csv from a stream (a file stream, an HTTP body) row by row, handing each
 * target to `onTarget`: the file is never held whole in memory. The header names the columns; any
 * column besides the required ones and `countries` and `birth_date` (kept for the reviewer) is ignored.
 */
export const readTargetsCsv = (
  input: AsyncIterable<string | Uint8Array>,
  onTarget: (target: ListTarget) => void,
): ResultAsync<number, SanctionsListUnreadable> =>
  ResultAsync.fromPromise(
    (async () => {
      const rows = parse({ columns: true, bom: true, skip_empty_lines: true });
      // A failing source destroys the parser, so the loop below ends with the source's error.
      pipeline(Readable.from(input), rows, () => {});
      let count = 0;
      let checked = false;
      for await (const row of rows as AsyncIterable<Record<string, string | undefined>>) {
        if (!checked) {
          const missing = REQUIRED_COLUMNS.filter((column) => !(column in row));
          if (missing.length > 0) throw new Error(`Missing column(s): ${missing.join(', ')}`);
          checked = true;
        }
        const id = row.id?.trim() ?? '';
        const name = row.name?.trim() ?? '';
        if (id === '' || name === '') continue;
        onTarget({
          id,
          schema: row.schema?.trim() ?? '',
          name,
          aliases: values(row.aliases),
          datasets: values(row.dataset),
          countries: values(row.countries),
          birthDates: values(row.birth_date),
        });
        count += 1;
      }
      return count;
    })(),
    (error) => unreadable(error instanceof Error ? error.message : String(error)),
  );
