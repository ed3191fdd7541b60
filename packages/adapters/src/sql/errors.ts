import type { SqlError } from "@effect/sql/SqlError"
import * as Data from "effect/Data"

/** SQLSTATE of a unique-constraint violation (`unique_violation`). */
export const UNIQUE_VIOLATION = "23505"

const stringField = (value: unknown, field: "code" | "constraint"): string | undefined => {
  if (typeof value !== "object" || value === null || !(field in value)) return undefined
  const found: unknown = (value as Record<string, unknown>)[field]
  return typeof found === "string" ? found : undefined
}

/** The SQLSTATE code carried by the driver error behind a `SqlError`, on PGlite and PostgreSQL alike. */
export const sqlStateOf = (error: SqlError): string | undefined => stringField(error.cause, "code")

/** The name of the constraint the database reported as violated, when it named one. */
export const violatedConstraintOf = (error: SqlError): string | undefined => stringField(error.cause, "constraint")

/** Whether the statement failed on a unique constraint (optionally: on this named constraint). */
export const isUniqueViolation = (error: SqlError, constraint?: string): boolean =>
  sqlStateOf(error) === UNIQUE_VIOLATION && (constraint === undefined || violatedConstraintOf(error) === constraint)

/** Another live process owns the embedded database directory. */
export class DataDirectoryLocked extends Data.TaggedError("DataDirectoryLocked")<{
  readonly dataDir: string
  readonly pid: number
}> {
  override get message(): string {
    return `the server (pid ${this.pid}) holds the data directory ${this.dataDir}; stop it or point DATABASE_URL at PostgreSQL`
  }
}

/** The embedded database directory (or its lock file) could not be created or read. */
export class DataDirectoryUnavailable extends Data.TaggedError("DataDirectoryUnavailable")<{
  readonly dataDir: string
  readonly cause: unknown
}> {
  override get message(): string {
    const reason = this.cause instanceof Error ? this.cause.message : String(this.cause)
    return `cannot use the data directory ${this.dataDir}: ${reason}`
  }
}
