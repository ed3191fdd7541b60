import { fileURLToPath } from "node:url"
import {
  DatabaseConfig,
  type DatabaseConfig as Database,
  databaseLayer,
  LeaseTakeoverLive,
  migrations,
  migrationsLayer,
  RateLimiterSql,
  SqlReposLive
} from "@svc/adapters/sql"
import { IdsLive, LinkPreviewOffline, RateLimiterMemory, SecretsLive } from "@svc/adapters/system"
import { MediaLocalLive, type MediaStoreConfig, mediaLayer } from "@svc/adapters/media"
import { Layer } from "effect"

/**
 * The migrated empty PGlite database this package ships (`dist/pglite-seed.tar.gz`, made by the build): a new
 * `DATA_DIR` opens from it in about 1.4 s, where `initdb` and the migrations take about 6. The path is the same
 * from the sources and from `dist/`.
 */
export const PGLITE_SEED = fileURLToPath(new URL("../dist/pglite-seed.tar.gz", import.meta.url))

/** An embedded database with no seed of its own starts from {@link PGLITE_SEED}. */
const seeded = (database: Database): Database =>
  DatabaseConfig.$is("Pglite")(database) && database.seed === undefined
    ? DatabaseConfig.Pglite({ dataDir: database.dataDir, seed: PGLITE_SEED })
    : database

/**
 * Every core port for a database: the repositories over SQL with migrations applied first,
 * and the rate limiter in memory on the embedded engine (one process owns it) or in
 * PostgreSQL (shared by every instance), and media in `media` (the server's `SVC_MEDIA_STORE`). On the embedded
 * engine, leases a dead process left are taken back.
 */
export const storageLayer = (database: Database, media?: MediaStoreConfig) => {
  const embedded = DatabaseConfig.$is("Pglite")(database)
  const limiter = embedded ? RateLimiterMemory : RateLimiterSql
  // The embedded database is this process's alone (its directory lock): what a dead predecessor held is taken back
  // at once, after the migrations, instead of when its leases expire.
  const migrated = embedded
    ? LeaseTakeoverLive.pipe(Layer.provide(migrationsLayer(migrations)))
    : migrationsLayer(migrations)
  // Media in the given store; else the filesystem store with `MediaStoreSettings` (its defaults unless provided).
  const mediaPorts = media === undefined ? MediaLocalLive : mediaLayer(media)
  return Layer.mergeAll(SqlReposLive, limiter, migrated, mediaPorts).pipe(
    Layer.provideMerge(databaseLayer(seeded(database))),
    Layer.merge(IdsLive),
    Layer.merge(SecretsLive),
    // Link titles are made from the address; a fetching LinkPreview adapter would go here.
    Layer.merge(LinkPreviewOffline)
  )
}
