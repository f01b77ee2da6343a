/**
 * Go's string trimming, for values the controller or nodeadm trims with `strings.TrimSpace`.
 *
 * JavaScript's `String.prototype.trim` differs from Go's `strings.TrimSpace` in two characters: it trims the
 * byte-order mark U+FEFF, which Go keeps, and keeps NEL U+0085, which Go trims. Go trims what `unicode.IsSpace`
 * reports (Go 1.26 src/unicode/graphic.go IsSpace, tables.go White_Space): `\t \n \v \f \r`, space, U+0085,
 * U+00A0 and the White_Space property (U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
 */

/** The characters Go's `unicode.IsSpace` reports as space. */
const GO_SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING = new RegExp(`^[${GO_SPACE}]+`);
const TRAILING = new RegExp(`[${GO_SPACE}]+$`);

/** Whether `ch` (one character) is space to Go's `unicode.IsSpace`. */
export function isGoSpace(ch: string): boolean {
  return ch.length > 0 && LEADING.test(ch);
}

/** `s` as Go's `strings.TrimSpace(s)` returns it. */
export function goTrimSpace(s: string): string {
  return s.replace(LEADING, "").replace(TRAILING, "");
}
