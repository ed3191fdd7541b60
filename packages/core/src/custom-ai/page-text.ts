/**
 * Text as knowledge stores it. Pages become text in the `DocumentText` port (an HTML library in adapters); what
 * every source's text goes through here is only the final clean-up.
 */

/** Text safe to store and index: no NUL or other control characters but tabs and line breaks, `\n` line ends. */
export const cleanText = (text: string): string =>
  text
    .replace(/\r\n?/g, "\n")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
