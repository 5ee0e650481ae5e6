/**
 * Text content for XML 1.0 element bodies. We only ever write element text (no attributes), so
 * quotes need no escaping; `>` is escaped anyway so that `]]>` can never appear. Characters that
 * XML 1.0 forbids (C0 controls other than tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) are
 * dropped: no escape can carry them and a strict parser would reject the document.
 */

/**
 * Anything that needs work. Without the `u` flag this matches every surrogate code unit, paired
 * or not, so text with emoji takes the slow path too; that path sorts the pairs out.
 */
const NEEDS_WORK = /[&<>\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * The same set in `u` mode: a valid surrogate pair is one code point above U+FFFF and does not
 * match, so `[\uD800-\uDFFF]` only matches lone surrogates.
 */
const TO_REPLACE = /[&<>\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/gu;

function replacement(char: string): string {
  switch (char) {
    case '&':
      return '&amp;';
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    case '\r':
      // A literal CR would come back as LF (XML end-of-line handling); a reference survives.
      return '&#13;';
    default:
      return ''; // a character XML 1.0 forbids
  }
}

/** `text` as XML element content: escaped, forbidden characters dropped, never CDATA. */
export function escapeXmlText(text: string): string {
  return NEEDS_WORK.test(text) ? text.replace(TO_REPLACE, replacement) : text;
}

