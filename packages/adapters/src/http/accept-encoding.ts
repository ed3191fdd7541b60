/**
 * Whether an Accept-Encoding header (RFC 9110 §12.5.3) lets us answer with `Content-Encoding: gzip`.
 * No header means no: we compress only when asked. An explicit `gzip` entry decides over its `x-gzip`
 * alias, which decides over `*`; a weight of 0 refuses.
 */
export const acceptsGzip = (header: string | null | undefined): boolean => {
  if (header === undefined || header === null) return false
  const weights = new Map<string, number>()
  for (const element of header.split(",")) {
    const [coding = "", ...parameters] = element.split(";")
    const name = coding.trim().toLowerCase()
    if (name === "") continue
    const weight = weightOf(parameters)
    // An element whose weight we cannot read states no preference we could honour.
    if (weight === undefined) continue
    weights.set(name, Math.max(weight, weights.get(name) ?? 0))
  }
  return (weights.get("gzip") ?? weights.get("x-gzip") ?? weights.get("*") ?? 0) > 0
}

/** RFC 9110 §12.4.2: "0" to "1" with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** The element's `q` weight, 1 when absent, undefined when malformed. */
const weightOf = (parameters: ReadonlyArray<string>): number | undefined => {
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=")
    const name = (equals === -1 ? parameter : parameter.slice(0, equals)).trim().toLowerCase()
    if (name !== "q") continue
    const value = equals === -1 ? "" : parameter.slice(equals + 1).trim()
    return QVALUE.test(value) ? Number(value) : undefined
  }
  return 1
}
