/** The event log every change writes to in its own transaction (`EventLog`) and its records. */
export { EventLog } from "./ports.js"
export type { EventRecord } from "./schema.js"
export type { MakeEvent, RecordEvent } from "./service.js"
