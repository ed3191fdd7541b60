/**
 * Which addresses a webhook may be sent to. Pure checks, used at creation (a clear error early)
 * and again by the sender at every attempt on the addresses DNS gives then (the check that
 * matters, since DNS can change between the two).
 */

/** Why an address or URL is refused. */
export type AddressRefusal =
  | "not-a-url"
  | "not-https"
  | "userinfo"
  | "ip-literal"
  | "localhost"
  | "non-public-address"
  | "bad-port"

const parseIPv4 = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN))
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined
}

/** The 16 bytes of an IPv6 address in any textual form (with `::`, an embedded IPv4 tail, or a zone). */
const parseIPv6 = (input: string): ReadonlyArray<number> | undefined => {
  let text = input.replace(/^\[|\]$/g, "").split("%")[0] ?? ""
  if (!text.includes(":")) return undefined
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes its two hex groups.
  const lastColon = text.lastIndexOf(":")
  const tail = text.slice(lastColon + 1)
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail)
    if (!v4) return undefined
    const [a = 0, b = 0, c = 0, d = 0] = v4
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groups = (part: string | undefined) => (part ? part.split(":") : [])
  const left = groups(halves[0])
  const right = groups(halves[1])
  const missing = 8 - left.length - right.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const all = [...left, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...right]
  const bytes: Array<number> = []
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined
    const value = Number.parseInt(group, 16)
    bytes.push(value >> 8, value & 0xff)
  }
  return bytes
}

const inV4 = (b: ReadonlyArray<number>, base: ReadonlyArray<number>, bits: number): boolean => {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8))
    const mask = take === 0 ? 0 : (0xff << (8 - take)) & 0xff
    if (((b[i] ?? 0) & mask) !== ((base[i] ?? 0) & mask)) return false
  }
  return true
}

// Everything that is not the public internet: RFC 6890 special-purpose registries and friends.
const V4_BLOCKED: ReadonlyArray<readonly [ReadonlyArray<number>, number]> = [
  [[0, 0, 0, 0], 8], // "this network"
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (cloud metadata lives here)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4] // reserved and broadcast
]

const isPublicV4 = (b: ReadonlyArray<number>): boolean => !V4_BLOCKED.some(([base, bits]) => inV4(b, base, bits))

const isPublicV6 = (b: ReadonlyArray<number>): boolean => {
  const word = (i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0)
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0)
  if (zeros(0, 16)) return false // unspecified
  if (zeros(0, 15) && b[15] === 1) return false // loopback
  // Forms that carry an IPv4 address: judge the IPv4 address.
  if (zeros(0, 10) && word(10) === 0xffff) return isPublicV4(b.slice(12)) // IPv4-mapped
  if (zeros(0, 12)) return isPublicV4(b.slice(12)) // IPv4-compatible (deprecated)
  if (word(0) === 0x64 && word(2) === 0xff9b && zeros(4, 12)) return isPublicV4(b.slice(12)) // NAT64 well-known
  if (word(0) === 0x64 && word(2) === 0xff9b && word(4) === 1) return false // NAT64 local-use 64:ff9b:1::/48
  if (word(0) === 0x2002) return isPublicV4(b.slice(2, 6)) // 6to4
  if (word(0) === 0x2001 && word(2) === 0) return false // Teredo (hides the real peer)
  const first = b[0] ?? 0
  if ((first & 0xfe) === 0xfc) return false // unique local fc00::/7
  if (first === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80) return false // link-local fe80::/10
  if (first === 0xfe && ((b[1] ?? 0) & 0xc0) === 0xc0) return false // site-local fec0::/10 (deprecated)
  if (first === 0xff) return false // multicast
  if (word(0) === 0x2001 && word(2) === 0x0db8) return false // documentation
  if (word(0) === 0x0100 && zeros(2, 8)) return false // discard-only 100::/64
  if (word(0) === 0x2001 && (b[2] ?? 0) < 0x02) return false // IETF protocol assignments 2001::/23
  return (first & 0xe0) === 0x20 // only global unicast 2000::/3 is routed on the internet
}

/** Whether an IP address (v4 or v6 text) is on the public internet. Unparseable text is not. */
export const isPublicAddress = (address: string): boolean => {
  const v4 = parseIPv4(address)
  if (v4) return isPublicV4(v4)
  const v6 = parseIPv6(address)
  return v6 ? isPublicV6(v6) : false
}

/** Whether `text` is an IP literal of either family (with or without brackets). */
export const isIpLiteral = (text: string): boolean => parseIPv4(text) !== undefined || parseIPv6(text) !== undefined

const LOCAL_NAMES =
  /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.(localhost|local|internal|home\.arpa|lan)$/i

/**
 * Checks the form of a receiver URL: https only (or http when loopback receivers are allowed for tests),
 * no user:password, a host name rather than an IP literal, and not a name that is local by definition.
 */
export const checkReceiverUrl = (
  text: string,
  options: { readonly allowLoopback: boolean }
): { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly refusal: AddressRefusal } => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, refusal: "not-a-url" }
  }
  const loopbackTest = options.allowLoopback && isLoopbackHost(url.hostname)
  if (url.protocol !== "https:" && !(loopbackTest && url.protocol === "http:"))
    return { ok: false, refusal: "not-https" }
  if (url.username !== "" || url.password !== "") return { ok: false, refusal: "userinfo" }
  if (loopbackTest) return { ok: true, url }
  if (isIpLiteral(url.hostname)) return { ok: false, refusal: "ip-literal" }
  if (LOCAL_NAMES.test(url.hostname.replace(/\.$/, ""))) return { ok: false, refusal: "localhost" }
  if (!url.hostname.includes(".")) return { ok: false, refusal: "localhost" }
  return { ok: true, url }
}

/**
 * A receiver URL as the URL parser reads it, the address a send goes to: a `\` read as `/`, the scheme and host
 * in lower case (an international name in its `xn--` form), a default port left out, dot segments resolved, and
 * no `#fragment` (never sent). Text that is no URL is answered unchanged. Also shows rows stored before URLs
 * were normalised on the way in.
 */
export const normalizedReceiverUrl = (text: string): string => {
  try {
    const url = new URL(text)
    url.hash = ""
    return url.href
  } catch {
    return text
  }
}

/** Whether a host is a loopback name or address (the only non-public receivers the test switch admits). */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.replace(/^\[|\]$/g, "")
  if (/^localhost\.?$/i.test(bare)) return true
  const v4 = parseIPv4(bare)
  if (v4) return v4[0] === 127
  const v6 = parseIPv6(bare)
  if (!v6) return false
  const isV6Loopback = v6.slice(0, 15).every((x) => x === 0) && v6[15] === 1
  const isMappedLoopback = v6.slice(0, 10).every((x) => x === 0) && v6[10] === 0xff && v6[11] === 0xff && v6[12] === 127
  return isV6Loopback || isMappedLoopback
}

/** A sentence for each refusal, for the 422 at creation and the delivery log. */
export const refusalMessage: Record<AddressRefusal, string> = {
  "not-a-url": "the address is not a URL",
  "not-https": "the address must start with https://",
  userinfo: "the address cannot carry a user name or password",
  "ip-literal": "the address must use a host name, not an IP address",
  localhost: "the address must be a public host name, not a local one",
  "non-public-address": "the host resolves to a private, loopback or otherwise non-public address",
  "bad-port": "the address uses a port that is not allowed"
}
