import { pageOf } from "@svc/core/shared"
import { type Skill, SkillsRepo, type SkillSummary } from "@svc/core/skills"
import { Effect, Layer, Option } from "effect"
import { LeanSql } from "../lean.js"

interface SummaryRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly description: string
  readonly size: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface SkillRow extends SummaryRow {
  readonly text: string
  readonly leading_bom: boolean
}

const toSummary = (row: SummaryRow): SkillSummary => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  description: row.description,
  size: row.size,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

// PGlite decodes text with a `TextDecoder` that drops a leading byte order mark, so the mark is kept in its own
// column and the text stored after it: the export stays byte for byte on both engines.
const BOM = "\uFEFF"

const toSkill = (row: SkillRow): Skill => ({ ...toSummary(row), text: row.leading_bom ? BOM + row.text : row.text })

const stored = (text: string) =>
  text.startsWith(BOM) ? { text: text.slice(BOM.length), leadingBom: true } : { text, leadingBom: false }

const first = (rows: ReadonlyArray<SkillRow>) => Option.map(Option.fromNullable(rows[0]), toSkill)

/** `SkillsRepo` over SQL: one row per skill, its `SKILL.md` in `text` as imported; names unique per workspace. */
export const SkillsRepoSql = Layer.effect(
  SkillsRepo,
  Effect.gen(function* () {
    const lean = yield* LeanSql
    return {
      // NO KEY UPDATE: imports queue on the workspace row, while inserts elsewhere that reference it (key share) do not.
      lockWorkspace: (workspaceId) =>
        lean`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR NO KEY UPDATE`.pipe(Effect.asVoid, Effect.orDie),
      count: (workspaceId) =>
        lean<{ readonly n: number }>`SELECT count(*)::int AS n FROM skills WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      findById: (workspaceId, id) =>
        lean<SkillRow>`SELECT * FROM skills WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      findByName: (workspaceId, name) =>
        lean<SkillRow>`SELECT * FROM skills WHERE workspace_id = ${workspaceId} AND name = ${name}`.pipe(
          Effect.map(first),
          Effect.orDie
        ),
      insert: (s) => {
        const { text, leadingBom } = stored(s.text)
        return lean`INSERT INTO skills (id, workspace_id, name, description, text, leading_bom, size, created_at,
                                        updated_at)
                    VALUES (${s.id}, ${s.workspaceId}, ${s.name}, ${s.description}, ${text}, ${leadingBom}, ${s.size},
                            ${s.createdAt}, ${s.updatedAt})`.pipe(Effect.asVoid, Effect.orDie)
      },
      replace: (workspaceId, id, change) => {
        const { text, leadingBom } = stored(change.text)
        return lean`UPDATE skills SET description = ${change.description}, text = ${text}, leading_bom = ${leadingBom},
                                      size = ${change.size}, updated_at = ${change.at}
                    WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      },
      // The text stays out of lists: a page of 100 skills could otherwise carry 10 MB.
      listPage: (workspaceId, page) =>
        lean<SummaryRow>`SELECT id, workspace_id, name, description, size, created_at, updated_at FROM skills
                         WHERE workspace_id = ${workspaceId}
                           AND (${page.after === undefined} OR (created_at, id) < (${page.after?.createdAt ?? null}::timestamptz, ${page.after?.id ?? null}::text))
                         ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
          Effect.map((rows) => pageOf(rows.map(toSummary), page.limit)),
          Effect.orDie
        )
    }
  })
)
