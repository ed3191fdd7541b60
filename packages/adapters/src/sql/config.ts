/**
 * Storage settings: which database the environment names (`databaseConfig`, for `svc` and embedders that want the
 * same variables) and how often idle webhook workers poll the queue (`DeliveryPolling`, a layer's to set).
 */
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Config, type ConfigError, Context, Effect, Layer } from "effect"
import { DatabaseConfig, databaseLayer } from "./database.js"
import type { DataDirectoryLocked, DataDirectoryUnavailable } from "./errors.js"
import type { LeanSql } from "./lean.js"

/** Reads `DATABASE_URL` (PostgreSQL when set) or else `DATA_DIR` (PGlite, default `.data`). */
export const databaseConfig: Config.Config<DatabaseConfig> = Config.all({
  url: Config.option(Config.string("DATABASE_URL")),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault(".data"))
}).pipe(
  Config.map(({ dataDir, url }) =>
    url._tag === "Some" && url.value.trim() !== ""
      ? DatabaseConfig.Postgres({ url: url.value })
      : DatabaseConfig.Pglite({ dataDir })
  )
)

/** The `SqlClient` chosen by the environment ({@link databaseConfig}). */
export const DatabaseLive: Layer.Layer<
  SqlClient | LeanSql,
  SqlError | DataDirectoryLocked | DataDirectoryUnavailable | ConfigError.ConfigError
> = Layer.unwrapEffect(Effect.map(databaseConfig, databaseLayer))

/** How often an idle webhook worker looks at the delivery queue. */
export interface DeliveryPollingShape {
  /**
   * Overrides both poll intervals, beside LISTEN on PostgreSQL and alone on PGlite (the server's
   * `SVC_WEBHOOK_POLL_MS`; tests and benchmarks shorten it). Unset: 2 s and 500 ms.
   */
  readonly pollMs?: number | undefined
}

/** The delivery queue's polling in use: the engine's own intervals unless a layer overrides them. */
export class DeliveryPolling extends Context.Reference<DeliveryPolling>()("svc/sql/DeliveryPolling", {
  defaultValue: (): DeliveryPollingShape => ({})
}) {}
