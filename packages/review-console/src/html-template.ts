/** Markup the console wrote itself: interpolated as is by `html`, everything else is escaped. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => escapes[character] ?? '');

type Interpolated = SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

const render = (value: Interpolated): string => {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
};

/**
 * The console's one way to write markup: every interpolated value is escaped unless it is markup
 * this tag made (arrays of it are joined), so data from a client, a hit or a host never becomes markup.
 */
export const html = (strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml =>
  new SafeHtml(
    strings.reduce(
      (markup, part, index) =>
        markup + part + (index < values.length ? render(values[index] as Interpolated) : ''),
      '',
    ),
  );
