import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// The workspace library: boards, connections, tags, tables, highlights, captures, chats, and full-text search.
// Boards, links, posts, ads, media and tables are all rows of `items` (type-specific fields in `data`), so one
// list, one trash and one search cover them.
const statements = [
  // What a person wrote about an item (svc_set_item_note), and the fields of each kind of item.
  "ALTER TABLE items ADD COLUMN note text NOT NULL DEFAULT ''",
  "ALTER TABLE items ADD COLUMN data jsonb NOT NULL DEFAULT '{}'::jsonb",
  // Ranked search over title (A), note and body (B) and saved text in data (C).
  `ALTER TABLE items ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(note, '') || ' ' || coalesce(body, '')), 'B') ||
    setweight(to_tsvector('english', coalesce(data ->> 'text', '') || ' ' || coalesce(data ->> 'description', '')), 'C')
  ) STORED`,
  "CREATE INDEX items_search ON items USING gin (search)",
  "CREATE INDEX items_workspace_url ON items (workspace_id, url) WHERE url IS NOT NULL",
  "CREATE INDEX items_workspace_trashed ON items (workspace_id, trashed_at) WHERE trashed_at IS NOT NULL",
  // Items placed on a board (a board is an item of type 'board'); an item may sit on many boards.
  `CREATE TABLE board_items (
    board_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    item_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    x double precision NOT NULL DEFAULT 0,
    y double precision NOT NULL DEFAULT 0,
    added_at timestamptz NOT NULL,
    PRIMARY KEY (board_id, item_id)
  )`,
  "CREATE INDEX board_items_item ON board_items (item_id)",
  // Directed, labelled links between two items, optionally drawn on a board.
  `CREATE TABLE connections (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    from_item_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    to_item_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    board_id text REFERENCES items (id) ON DELETE CASCADE,
    label text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    CHECK (from_item_id <> to_item_id)
  )`,
  "CREATE UNIQUE INDEX connections_unique ON connections (from_item_id, to_item_id, coalesce(board_id, ''))",
  "CREATE INDEX connections_to ON connections (to_item_id)",
  // Tags are per workspace, unique by name regardless of case.
  `CREATE TABLE tags (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  "CREATE UNIQUE INDEX tags_workspace_name ON tags (workspace_id, lower(name))",
  `CREATE TABLE item_tags (
    item_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    tag_id text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (item_id, tag_id)
  )`,
  "CREATE INDEX item_tags_tag ON item_tags (tag_id)",
  // Rows of a table item; the columns live in the item's data (`data.columns`).
  `CREATE TABLE table_rows (
    id text PRIMARY KEY,
    table_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    position bigint NOT NULL,
    cells jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE UNIQUE INDEX table_rows_position ON table_rows (table_id, position)",
  // Passages saved from an item.
  `CREATE TABLE highlights (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    item_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    text text NOT NULL,
    note text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', text), 'A') || setweight(to_tsvector('english', note), 'B')
    ) STORED
  )`,
  "CREATE INDEX highlights_search ON highlights USING gin (search)",
  "CREATE INDEX highlights_workspace_recent ON highlights (workspace_id, created_at DESC, id DESC)",
  // Clips saved from the web or a social post; `item_id` is the library item they were saved with, if any.
  `CREATE TABLE captures (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    item_id text REFERENCES items (id) ON DELETE SET NULL,
    source_url text,
    platform text,
    title text NOT NULL DEFAULT '',
    text text NOT NULL,
    created_at timestamptz NOT NULL,
    search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', text), 'B')
    ) STORED
  )`,
  "CREATE INDEX captures_search ON captures USING gin (search)",
  "CREATE INDEX captures_workspace_recent ON captures (workspace_id, created_at DESC, id DESC)",
  // Conversations in a workspace; a Custom AI chat names its assistant.
  `CREATE TABLE chats (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    title text NOT NULL,
    custom_ai_id text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX chats_workspace_recent ON chats (workspace_id, updated_at DESC, id DESC)"
]

/** The workspace library: boards, connections, tags, tables, highlights, captures, chats and search. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
