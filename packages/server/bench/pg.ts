/** The `pg` driver that `@effect/sql-pg` itself loads (`pg` ships no types; this is the little the bench uses). */
import { createRequire } from "node:module"

/** A `pg` pool, as far as the bench uses it. */
export interface PgPool {
  query(text: string, values?: ReadonlyArray<unknown>): Promise<{ rows: Array<Record<string, unknown>> }>
  /** A named query: prepared on its connection the first time, then only bound and executed. */
  query(config: {
    name: string
    text: string
    values: Array<unknown>
  }): Promise<{ rows: Array<Record<string, unknown>> }>
  end(): Promise<void>
}

/** The `pg.Pool` constructor. */
export type PgPoolClass = new (options: { connectionString: string; max: number }) => PgPool

/** Loads `pg.Pool` through `@effect/sql-pg`, so it is the very driver (and version) our server runs on. */
export const loadPgPool = (): PgPoolClass => {
  const here = createRequire(import.meta.url)
  const pg: unknown = createRequire(here.resolve("@effect/sql-pg/PgClient"))("pg")
  const Pool = typeof pg === "object" && pg !== null && "Pool" in pg ? pg.Pool : undefined
  if (typeof Pool !== "function") throw new Error("the pg driver has no Pool")
  return Pool as PgPoolClass
}
