import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

// One statement per query: PGlite runs a single statement per `query` call.
const statements: ReadonlyArray<string> = [
  // A course's lessons are its Custom AI's sources; a lesson may show a media asset (kept by id: a gone asset shows
  // nothing rather than losing the lesson).
  "ALTER TABLE custom_ai_sources ADD COLUMN media_id text",
  // A person's place in a course: the secret of their course page's link, one per person and course.
  `CREATE TABLE store_course_learners (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    email text NOT NULL,
    name text,
    key text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (workspace_id, product_id, email)
  )`,
  // The lessons each learner finished, once each; a removed lesson's rows go with it.
  `CREATE TABLE store_lesson_completions (
    learner_id text NOT NULL REFERENCES store_course_learners (id) ON DELETE CASCADE,
    lesson_id text NOT NULL REFERENCES custom_ai_sources (id) ON DELETE CASCADE,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    completed_at timestamptz NOT NULL,
    PRIMARY KEY (learner_id, lesson_id)
  )`,
  // Learners' questions on lessons; the lesson's title is kept as asked, so a removed lesson's question still reads.
  `CREATE TABLE store_lesson_questions (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    product_id text NOT NULL REFERENCES store_products (id) ON DELETE CASCADE,
    product_title text NOT NULL,
    learner_id text NOT NULL REFERENCES store_course_learners (id) ON DELETE CASCADE,
    lesson_id text NOT NULL,
    lesson_title text NOT NULL,
    email text NOT NULL,
    name text,
    text text NOT NULL,
    answer text,
    answered_at timestamptz,
    hidden boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX store_lesson_questions_listed ON store_lesson_questions (workspace_id, created_at DESC, id DESC)",
  "CREATE INDEX store_lesson_questions_lesson ON store_lesson_questions (workspace_id, lesson_id, created_at)",
  "CREATE INDEX store_lesson_questions_learner ON store_lesson_questions (learner_id, created_at)"
]

/** Courses: lesson media, learners with their course links, finished lessons, and lesson questions. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement)
})
