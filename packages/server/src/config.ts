import { Config } from "effect"

const list = (name: string) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.map((text) =>
      text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
    )
  )

/** Everything the server reads from its environment (see the README's configuration table). */
export const ServerConfig = Config.all({
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.port("PORT").pipe(Config.withDefault(8787)),
  /** The origin clients use to reach us; defaults to http://HOST:PORT. */
  publicUrl: Config.option(Config.url("PUBLIC_URL")),
  /** The authorization server's base URL (`{auth_url}`, the OAuth issuer); defaults to the public origin. */
  authUrl: Config.option(Config.url("AUTH_URL")),
  bootstrap: Config.boolean("SVC_BOOTSTRAP").pipe(Config.withDefault(true)),
  rateLimitExemptKeyIds: list("SVC_RATE_LIMIT_EXEMPT_KEYS"),
  allowedOrigins: list("SVC_ALLOWED_ORIGINS")
})

export type ServerConfig = Config.Config.Success<typeof ServerConfig>

/** The public origin, without a trailing slash. */
export const publicOrigin = (config: ServerConfig): string =>
  config.publicUrl._tag === "Some"
    ? config.publicUrl.value.origin
    : `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`
