import { Clock, Effect, Either, Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { invalid } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { makeContactTagger } from "../email-list/contact-tagging.js"
import type { GrantAccess } from "../sales/free-grant.js"
import { ProductsRepo } from "../catalog/ports.js"
import { type StoreTag, StoreTagsRepo } from "../email-list/ports.js"
import { TAG_NAME_MAX, TAGS_PER_CALL_MAX } from "../email-list/tag-rules.js"

/** The most rows one import takes. */
export const IMPORT_ROWS_MAX = 1000

/** One person to import. */
export interface ImportRow {
  readonly email: string
  readonly name?: string | undefined
  readonly productId: string
  readonly tags?: ReadonlyArray<string> | undefined
}

/** What became of one imported row (`row` is its index in the input). */
export interface ImportLine {
  readonly row: number
  readonly email: string
  readonly status: "added" | "already_has_access" | "access_off" | "invalid"
  readonly reason?: string
}

const decodeEmail = Schema.decodeUnknownEither(Email)

/**
 * Imports people with free access, row by row through the one grant step, all in one transaction: a bad row is
 * answered `invalid` with its reason and the good rows still import; a repeat changes nothing.
 */
export const makeCustomerImport = (grant: GrantAccess) =>
  Effect.gen(function* () {
    const products = yield* ProductsRepo
    const tagsRepo = yield* StoreTagsRepo
    const ids = yield* Ids
    const transactor = yield* Transactor
    const tagContact = yield* makeContactTagger

    /** Each row's tag names, trimmed and once each; `undefined` when one breaks the tag rules. */
    const tagNamesOf = (row: ImportRow): ReadonlyArray<string> | undefined => {
      const names = new Map<string, string>()
      for (const raw of row.tags ?? []) {
        const name = raw.trim()
        if (name.length === 0 || name.length > TAG_NAME_MAX) return undefined
        if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name)
      }
      return names.size > TAGS_PER_CALL_MAX ? undefined : [...names.values()]
    }

    /** Creates the import's tags once (unknown names become new tags); answers them by lower-case name. */
    const ensureTags = (workspaceId: string, names: ReadonlyArray<string>, now: Date) =>
      Effect.gen(function* () {
        // The first spelling of a new name is the one kept, as `StoreTagging` keeps it.
        const wanted = new Map<string, string>()
        for (const name of names) if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name)
        if (wanted.size === 0) return new Map<string, StoreTag>()
        const fresh = yield* Effect.forEach([...wanted.values()], (name) =>
          Effect.map(ids.make("tag_"), (id) => ({ id, name }))
        )
        const tags = yield* tagsRepo.ensure(workspaceId, fresh, now)
        return new Map(tags.map((t) => [t.name.toLowerCase(), t]))
      })

    /** Imports the rows in order, answering one line per row. */
    return (
      caller: StoreCaller,
      input: { readonly rows: ReadonlyArray<ImportRow>; readonly sendEmail?: boolean | undefined }
    ) =>
      Effect.gen(function* () {
        if (input.rows.length === 0 || input.rows.length > IMPORT_ROWS_MAX) {
          return yield* invalid("rows", `give 1 to ${IMPORT_ROWS_MAX} rows per import`)
        }
        return yield* transactor.withTransaction(
          Effect.gen(function* () {
            const now = new Date(yield* Clock.currentTimeMillis)
            // One read of the store's products for the whole import, not one per row.
            const byId = new Map((yield* products.listAll(caller.workspaceId)).map((p) => [p.id, p]))
            const tagNames = input.rows.map(tagNamesOf)
            // Tags are made only for rows that can import, so a refused row leaves no new tag behind.
            const mayImport = (row: ImportRow, index: number) =>
              tagNames[index] !== undefined &&
              Either.isRight(decodeEmail(row.email)) &&
              byId.get(row.productId)?.status === "live"
            const tagsByName = yield* ensureTags(
              caller.workspaceId,
              input.rows.flatMap((row, index) => (mayImport(row, index) ? (tagNames[index] ?? []) : [])),
              now
            )
            const lines: Array<ImportLine> = []
            for (const [index, row] of input.rows.entries()) {
              const refuse = (reason: string) => lines.push({ row: index, email: row.email, status: "invalid", reason })
              const email = decodeEmail(row.email)
              if (Either.isLeft(email)) {
                refuse("email: must be an address like name@example.com")
                continue
              }
              const names = tagNames[index]
              if (names === undefined) {
                refuse(`tags: give at most ${TAGS_PER_CALL_MAX} names of 1 to ${TAG_NAME_MAX} characters`)
                continue
              }
              const product = byId.get(row.productId)
              if (product === undefined) {
                refuse(`productId: no product ${row.productId} in this store`)
                continue
              }
              const answer = yield* grant(product, { email: email.right, name: row.name }, "imported", {
                sendEmail: input.sendEmail === true,
                now
              })
              if (answer.status === "rejected") {
                if (answer.reason === "access_off") {
                  lines.push({ row: index, email: email.right, status: "access_off", reason: answer.message })
                } else {
                  refuse(`${answer.reason}: ${answer.message}`)
                }
                continue
              }
              const rowTags = names.flatMap((name) => tagsByName.get(name.toLowerCase()) ?? [])
              yield* tagContact(caller.workspaceId, email.right, rowTags, now)
              lines.push({ row: index, email: email.right, status: answer.status })
            }
            return { results: lines }
          })
        )
      })
  })
