/**
 * Storage on PostgreSQL or the embedded PGlite: the database layer and its settings, the migrations, and every
 * core repository over it (`SqlReposLive`, or `SqlPortsLive` with the system ports too).
 */
export { DatabaseLive, DeliveryPolling, type DeliveryPollingShape, databaseConfig } from "./config.js"
export {
  DatabaseConfig,
  DataDirHolder,
  databaseLayer,
  dataDirHolder,
  type MigrationOptions,
  type Migrations,
  migrationsLayer,
  removeStaleLock,
  runMigrations,
  staleLockMessage
} from "./database.js"
export { DataDirectoryLocked, DataDirectoryUnavailable } from "./errors.js"
export { LeanSql, LeanSqlFromClient, type LeanValue } from "./lean.js"
export { LeaseTakeoverLive, takeBackLeases } from "./lease-takeover.js"
export { SqlPortsLive, SqlReposLive } from "./layers.js"
export { migrations } from "./migrations/index.js"
export { MusicCatalogRepoSql } from "./repos/music-catalog.js"
export { DatabasePool, type PoolReading } from "./pool-stats.js"
export { WORK_QUEUES, WorkQueueGaugesSql } from "./work-queue-gauges.js"
export { layerFromPool as postgresLayerFromPool, postgresResultTypes } from "./postgres.js"
export { RateLimiterSql } from "./rate-limiter.js"
export {
  exportSqlDump,
  importSqlDump,
  type SchemaVersion,
  type SqlDump,
  type SqlDumpLoaded,
  SqlDumpRefused
} from "./sql-dump.js"
export { AnalyticsRepoSql } from "./repos/analytics.js"
