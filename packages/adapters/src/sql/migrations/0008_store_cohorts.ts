import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements = [
  `CREATE TABLE store_cohorts (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    name text NOT NULL,
    capacity integer CHECK (capacity IS NULL OR capacity > 0),
    starts_on text,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_cohorts_product ON store_cohorts (workspace_id, product_id)",
  // A person is in at most one cohort of a product: moving them is an update of this row.
  `CREATE TABLE store_cohort_members (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL,
    email text NOT NULL,
    cohort_id text NOT NULL REFERENCES store_cohorts (id) ON DELETE CASCADE,
    name text,
    over_cap boolean NOT NULL,
    joined_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, product_id, email)
  )`,
  "CREATE INDEX store_cohort_members_cohort ON store_cohort_members (cohort_id)",
  // People waiting for a sold-out product or one that takes waitlist emails instead of selling.
  `CREATE TABLE store_waitlist (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL,
    email text NOT NULL,
    name text,
    reason text NOT NULL CHECK (reason IN ('sold_out', 'waitlist_mode')),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, product_id, email)
  )`,
  // Tags on the store's people, by email; `name_key` (lower case) keeps one tag per name.
  `CREATE TABLE store_tags (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    name_key text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (workspace_id, name_key)
  )`,
  `CREATE TABLE store_person_tags (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    tag_id text NOT NULL REFERENCES store_tags (id) ON DELETE CASCADE,
    email text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, tag_id, email)
  )`,
  "CREATE INDEX store_person_tags_person ON store_person_tags (workspace_id, email)"
]

/** Cohorts and their members, product waitlists, and tags on the store's people. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
