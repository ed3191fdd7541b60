/**
 * A `json`/`jsonb` column as the driver hands it over: both of ours parse it, but a value that arrives as
 * text (another driver, a cast) is parsed here, so every repository reads these columns one way.
 */
export const jsonColumn = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value)

/** A `jsonb` column holding an object; SQL NULL reads as `{}`. */
export const jsonObject = (value: unknown): Readonly<Record<string, unknown>> =>
  (jsonColumn(value) ?? {}) as Record<string, unknown>
