import { Context, Layer } from "effect"

/** The service's external address as clients reach it, e.g. `http://127.0.0.1:8787` (no trailing slash). */
export interface PublicUrlShape {
  /** The base URL every public link starts with; may carry a path prefix behind a proxy. */
  readonly base: string
  /** The scheme, host and port of `base`, as browsers send it in `Origin`. */
  readonly origin: string
}

/** Parses a public base URL; throws at start-up when it is not an absolute http(s) URL. */
export const makePublicUrl = (url: string): PublicUrlShape => {
  const parsed = new URL(url)
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`the public URL must be http or https, not ${parsed.protocol}`)
  }
  if (parsed.search !== "" || parsed.hash !== "") throw new Error("the public URL cannot carry a query or a fragment")
  return { base: `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, ""), origin: parsed.origin }
}

/** The public base URL used in `WWW-Authenticate`, protected-resource metadata and OpenAPI `servers`. */
export class PublicUrl extends Context.Tag("svc/http/PublicUrl")<PublicUrl, PublicUrlShape>() {
  /** A layer for a base URL given as text. */
  static readonly layer = (url: string): Layer.Layer<PublicUrl> => Layer.sync(PublicUrl, () => makePublicUrl(url))
}

/** One MiB: far above any real tool input, small enough that a flood of bodies cannot exhaust memory. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** Transport settings of the tool faces. */
export interface HttpFaceSettingsShape {
  /** Largest request body read on `/mcp` and `/v1/tools/*`; longer ones answer 413. */
  readonly maxBodyBytes: number
  /**
   * Browser origins allowed to call `/mcp` (a request without `Origin` is always let through).
   * Entries are origins; a `:*` port matches any port. Unset: the public origin, `http://localhost:*`
   * and `http://127.0.0.1:*`.
   */
  readonly allowedOrigins?: ReadonlyArray<string> | undefined
}

/** Transport settings of the tool faces (body cap, allowed origins). */
export class HttpFaceSettings extends Context.Tag("svc/http/HttpFaceSettings")<
  HttpFaceSettings,
  HttpFaceSettingsShape
>() {
  /** A 1 MiB body cap and the default origin allow-list. */
  static readonly Default: Layer.Layer<HttpFaceSettings> = Layer.succeed(HttpFaceSettings, {
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES
  })
}
