/**
 * The filename an `attachment` Content-Disposition names, as a browser reads it: the RFC 5987
 * `filename*` when present, else the quoted `filename`; null when it is not an attachment.
 */
export const attachmentFilenameOf = (header: string | null): string | null => {
  if (header === null || !/^attachment\s*(;|$)/i.test(header)) return null;
  const extended = /;\s*filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header)?.[1];
  if (extended !== undefined) return decodeURIComponent(extended);
  const quoted = /;\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  return quoted === undefined ? null : quoted.replace(/\\(.)/g, '$1');
};
