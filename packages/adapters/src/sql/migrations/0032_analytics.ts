import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // Each posted delivery's metrics schedule: when it is fetched next (null once it stopped: past 90 days, or the post
  // is gone from its network), failures in a row for the back-off, and the claim of the worker fetching it.
  `CREATE TABLE post_metric_fetches (
    delivery_id text PRIMARY KEY REFERENCES post_deliveries (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    next_fetch_at timestamptz,
    failures integer NOT NULL DEFAULT 0,
    last_error text,
    last_fetched_at timestamptz,
    claim_token text,
    lease_until timestamptz,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX post_metric_fetches_due ON post_metric_fetches (next_fetch_at) WHERE next_fetch_at IS NOT NULL",
  // The time series: one row per fetch of a delivery. A metric the platform does not give is null, never 0.
  `CREATE TABLE post_metric_samples (
    delivery_id text NOT NULL REFERENCES post_deliveries (id) ON DELETE CASCADE,
    taken_at timestamptz NOT NULL,
    likes integer,
    replies integer,
    reposts integer,
    quotes integer,
    views integer,
    clicks integer,
    PRIMARY KEY (delivery_id, taken_at)
  )`,
  // Clicks on the links of the own feed's posts, counted by the feed's redirect, per post and UTC day.
  `CREATE TABLE feed_link_clicks (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    day date NOT NULL,
    clicks integer NOT NULL,
    PRIMARY KEY (post_id, day)
  )`,
  // What went out, by workspace and time: the analytics of a period read it.
  "CREATE INDEX post_deliveries_posted ON post_deliveries (workspace_id, posted_at) WHERE status = 'posted'",
  // What went out lately, for the worker's look for deliveries not on the schedule yet.
  "CREATE INDEX post_deliveries_posted_lately ON post_deliveries (posted_at) WHERE status = 'posted'"
]

/** Analytics: the metrics schedule of posted deliveries, their metric samples, and the own feed's link clicks. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
