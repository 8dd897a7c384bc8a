/** RFC 5987 attr-char: what may stay unencoded in `filename*`. */
const percentEncodeAttrChars = (value: string): string =>
  encodeURIComponent(value).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/**
 * `Content-Disposition: attachment` naming `filename` per RFC 6266: a quoted ASCII fallback for old
 * clients, and the exact UTF-8 name in `filename*` (RFC 5987), which current clients prefer.
 */
export const attachmentContentDisposition = (filename: string): string => {
  const asciiFallback = filename.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '\\$&');
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${percentEncodeAttrChars(filename)}`;
};
