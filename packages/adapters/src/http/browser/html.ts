/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** Marks a string as already-safe HTML. */
export interface Html {
  readonly html: string
}

const isHtml = (value: unknown): value is Html =>
  typeof value === "object" && value !== null && "html" in value && typeof value.html === "string"

/**
 * Builds HTML from a template, escaping every interpolated value that is not already `Html`; an array is its items
 * in a row, and `undefined`, `null` and `false` are nothing.
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<unknown>): Html => ({
  html: strings.reduce((out, part, i) => {
    if (i === 0) return part
    const value = values[i - 1]
    const text = Array.isArray(value)
      ? value.map((v: unknown) => (isHtml(v) ? v.html : escapeHtml(String(v)))).join("")
      : isHtml(value)
        ? value.html
        : value === undefined || value === null || value === false
          ? ""
          : escapeHtml(String(value))
    return out + text + part
  }, "")
})

/** A hidden form field. */
export const hidden = (name: string, value: string): Html => html`<input type="hidden" name="${name}" value="${value}">`
