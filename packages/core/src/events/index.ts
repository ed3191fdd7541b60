/** The event log every change writes to in its own transaction (`EventLog`), its records and the feed that follows it. */
export { type EventFeedOptions, eventFeed, FEED_LOOKBACK_MS } from "./feed.js"
export { EventLog, type EventTypeFilter } from "./ports.js"
export { type EventRecord, LoggedEvent } from "./schema.js"
export type { MakeEvent, RecordEvent } from "./service.js"
