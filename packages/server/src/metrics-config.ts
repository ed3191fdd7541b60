/**
 * Where `GET /metrics` is served (docs/metrics.md): `SVC_METRICS_TOKEN` serves it on the public port to a caller
 * with that bearer token; `SVC_METRICS_LISTEN` serves it (and nothing else) on a listener of its own, with the token
 * too when one is set. With neither, it is served nowhere: a public deployment never shows its metrics by accident.
 */
import { Config, ConfigError, Either, Option, Redacted } from "effect"

/** A listener's address: `host:port`, `[ipv6]:port`, or a bare port on loopback. */
export interface ListenAddress {
  readonly host: string
  readonly port: number
}

/** How `/metrics` is served. */
export interface MetricsSettings {
  /** The bearer token `/metrics` asks for; none: the separate listener answers anyone who reaches it. */
  readonly token: Option.Option<Redacted.Redacted>
  /** The listener of its own that serves only `/metrics`. */
  readonly listen: Option.Option<ListenAddress>
}

/** Whether `/metrics` is served at all. */
export const metricsServed = (settings: MetricsSettings): boolean =>
  Option.isSome(settings.token) || Option.isSome(settings.listen)

const BRACKETED = /^\[([0-9a-fA-F:.]+)\]:(\d{1,5})$/
const HOST_PORT = /^([^\s:[\]]+):(\d{1,5})$/
const BARE_PORT = /^:?(\d{1,5})$/

/** Reads `SVC_METRICS_LISTEN`'s forms; a problem names the variable and an example. */
export const parseListenAddress = (text: string): Either.Either<ListenAddress, string> => {
  const trimmed = text.trim()
  const bracketed = BRACKETED.exec(trimmed)
  const hostPort = HOST_PORT.exec(trimmed)
  const bare = BARE_PORT.exec(trimmed)
  const [host, port] = bracketed
    ? [bracketed[1], Number(bracketed[2])]
    : hostPort
      ? [hostPort[1], Number(hostPort[2])]
      : bare
        ? ["127.0.0.1", Number(bare[1])]
        : [undefined, Number.NaN]
  if (host === undefined || !(port >= 0 && port <= 65_535)) {
    return Either.left(
      `SVC_METRICS_LISTEN must be host:port, [ipv6]:port or a port (e.g. 127.0.0.1:9464), not "${text}"`
    )
  }
  return Either.right({ host, port })
}

/** `SVC_METRICS_TOKEN` (16 characters at least) and `SVC_METRICS_LISTEN`. */
export const MetricsConfig: Config.Config<MetricsSettings> = Config.all({
  token: Config.option(
    Config.redacted("SVC_METRICS_TOKEN").pipe(
      Config.validate({
        message: "SVC_METRICS_TOKEN must be at least 16 characters",
        validation: (token) => Redacted.value(token).length >= 16
      })
    )
  ),
  listen: Config.option(
    Config.string("SVC_METRICS_LISTEN").pipe(
      Config.mapOrFail((text) =>
        Either.mapLeft(parseListenAddress(text), (message) => ConfigError.InvalidData([], message))
      )
    )
  )
})
