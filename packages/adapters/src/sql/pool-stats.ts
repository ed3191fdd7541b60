import { Context } from "effect"
import type pg from "pg"

/** The database connections of this process at one moment. */
export interface PoolReading {
  /** Connections at most (PGlite: its one session). */
  readonly max: number
  /** Connections open, busy or idle. */
  readonly open: number
  /** Connections running a statement or held by a transaction. */
  readonly inUse: number
  /** Statements and transactions waiting for a connection. */
  readonly waiting: number
}

/**
 * Reads the PostgreSQL pool's connections, at scrape time. Only the PostgreSQL engine provides it: PGlite is one
 * session behind a lock, and the lock's waiters are not counted by anything public (docs/metrics.md).
 */
export class DatabasePool extends Context.Tag("svc/sql/DatabasePool")<
  DatabasePool,
  { readonly read: () => PoolReading }
>() {}

/** A `DatabasePool` over a `pg` pool, from its public counters. */
export const pgPoolReader = (pool: pg.Pool): Context.Tag.Service<DatabasePool> => ({
  read: () => ({
    max: pool.options.max ?? 10,
    open: pool.totalCount,
    inUse: pool.totalCount - pool.idleCount,
    waiting: pool.waitingCount
  })
})
