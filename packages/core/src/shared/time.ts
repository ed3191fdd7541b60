import { Schema } from "effect"

const description = "ISO 8601 timestamp in UTC, e.g. 2026-11-21T09:30:00.000Z."

/** A timestamp: a `Date` inside, an ISO 8601 UTC string on the wire. */
export const Timestamp = Schema.Date.annotations({
  description,
  jsonSchema: { type: "string", format: "date-time", description }
})
