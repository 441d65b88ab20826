// The bundle as ASCII only (tools/build/build.mjs; docs/adr/0051): every UTF-16 code unit above 0x7f written as a
// `\uXXXX` escape. In a bundle without comments such characters stand only in string, template and regular
// expression literals and in identifiers, where the escape means the same character (a pair of escaped surrogates
// is the same code point, also in a regular expression with the `u` flag). The one exception, `String.raw` over a
// template with such a character, gives the escape's text: no workspace library or dependency does that.

/**
 * `code` with every character outside ASCII escaped.
 * @param {string} code
 * @returns {string}
 */
export function asciiOnly(code) {
  // eslint-disable-next-line no-control-regex -- the point is to find what is not ASCII
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
