import {
  DatabaseConfig,
  type DatabaseConfig as Database,
  databaseLayer,
  migrations,
  migrationsLayer,
  RateLimiterSql,
  SqlReposLive
} from "@svc/adapters/sql"
import { IdsLive, LinkPreviewOffline, RateLimiterMemory, SecretsLive } from "@svc/adapters/system"
import { Layer } from "effect"

/**
 * Every core port for a database: the repositories over SQL with migrations applied first,
 * and the rate limiter in memory on the embedded engine (one process owns it) or in
 * PostgreSQL (shared by every instance).
 */
export const storageLayer = (database: Database) => {
  const limiter = DatabaseConfig.$is("Postgres")(database) ? RateLimiterSql : RateLimiterMemory
  return Layer.mergeAll(SqlReposLive, limiter, migrationsLayer(migrations)).pipe(
    Layer.provideMerge(databaseLayer(database)),
    Layer.merge(IdsLive),
    Layer.merge(SecretsLive),
    // Link titles are made from the address; a fetching LinkPreview adapter would go here.
    Layer.merge(LinkPreviewOffline)
  )
}
