import * as SqlClient from "@effect/sql/SqlClient"
import { pageOf } from "@svc/core/shared"
import { type ContactSource, type ContactStatus, type EmailContact, EmailContactsRepo } from "@svc/core/store"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"
import { personListFilters } from "./person-list.js"

interface ContactRow {
  readonly id: string
  readonly workspace_id: string
  readonly email: string
  readonly name: string | null
  readonly status: ContactStatus
  readonly source: ContactSource
  readonly created_at: Date
  readonly updated_at: Date
  readonly unsubscribed_at: Date | null
}

const toContact = (row: ContactRow): EmailContact => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  status: row.status,
  source: row.source,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  unsubscribedAt: row.unsubscribed_at
})

const first = (rows: ReadonlyArray<ContactRow>) => Option.map(Option.fromNullable(rows[0]), toContact)

/** `EmailContactsRepo` over SQL: one row per person, keyed by workspace and email; tags in `store_person_tags`. */
export const EmailContactsRepoSql = Layer.effect(
  EmailContactsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      find: (workspaceId, email) =>
        lean<ContactRow>`SELECT * FROM store_email_contacts
                         WHERE workspace_id = ${workspaceId} AND email = ${email}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      lock: (workspaceId, email) =>
        lean<ContactRow>`SELECT * FROM store_email_contacts
                         WHERE workspace_id = ${workspaceId} AND email = ${email} FOR UPDATE`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      // Sales add buyers here in their transaction, so it stays one statement.
      insert: (c) =>
        lean`INSERT INTO store_email_contacts (id, workspace_id, email, name, status, source, created_at, updated_at,
                                               unsubscribed_at)
            VALUES (${c.id}, ${c.workspaceId}, ${c.email}, ${c.name}, ${c.status}, ${c.source}, ${c.createdAt},
                    ${c.updatedAt}, ${c.unsubscribedAt})
            ON CONFLICT (workspace_id, email) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      update: (c) =>
        lean`UPDATE store_email_contacts SET name = ${c.name}, status = ${c.status}, updated_at = ${c.updatedAt},
              unsubscribed_at = ${c.unsubscribedAt}
            WHERE workspace_id = ${c.workspaceId} AND email = ${c.email}`.pipe(Effect.asVoid, Effect.orDie),
      // A customer keeps their tags (the customer list filters on them); anyone else leaves none behind.
      remove: (workspaceId, email) =>
        Effect.zipRight(
          lean`DELETE FROM store_email_contacts WHERE workspace_id = ${workspaceId} AND email = ${email}`,
          lean`DELETE FROM store_person_tags WHERE workspace_id = ${workspaceId} AND email = ${email}
                 AND NOT EXISTS (SELECT 1 FROM store_customers c WHERE c.workspace_id = ${workspaceId}
                                 AND c.email = ${email})`
        ).pipe(Effect.asVoid, Effect.orDie),
      countByStatus: (workspaceId) =>
        lean<{ status: string; people: number | string }>`SELECT status, count(*) AS people FROM store_email_contacts
                         WHERE workspace_id = ${workspaceId} GROUP BY status`.pipe(
          Effect.map((rows) => {
            const counts = { subscribed: 0, unsubscribed: 0, bounced: 0, complained: 0 }
            for (const row of rows) {
              if (row.status in counts) counts[row.status as keyof typeof counts] = Number(row.people)
            }
            return counts
          }),
          Effect.orDie
        ),
      listPage: (workspaceId, filter, page) => {
        const status = filter.status === undefined ? sql`` : sql`AND c.status = ${filter.status}`
        const listed = personListFilters(sql, filter, page)
        return sql<ContactRow>`SELECT c.* FROM store_email_contacts c WHERE c.workspace_id = ${workspaceId}
                               ${status} ${listed}
                               ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toContact), page.limit)),
          Effect.orDie
        )
      }
    }
  })
)
