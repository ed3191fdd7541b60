/** The `pg` driver our server runs on (a declared dependency of @svc/adapters, and of this package for the bench). */
import pg from "pg"

/** A `pg` pool, as far as the bench uses it. */
export type PgPool = pg.Pool

/** The `pg.Pool` constructor. */
export type PgPoolClass = new (options: { connectionString: string; max: number }) => PgPool

/** The `pg.Pool` constructor (kept as a function so the bench's callers need not import `pg`). */
export const loadPgPool = (): PgPoolClass => pg.Pool
