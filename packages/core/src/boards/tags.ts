import { Clock, Effect, Either, Encoding } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { invalid, type InvalidInput, NotFound } from "../shared/errors.js"
import { Ids, Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemsRepo } from "../items/ports.js"
import { TagsRepo } from "./ports.js"
import { withSpan } from "../shared/spans.js"

/** A tag name as stored: trimmed, inner runs of spaces made one; `undefined` when blank or too long. */
export const normaliseTagName = (name: string): string | undefined => {
  const clean = name.trim().replace(/\s+/g, " ")
  return clean.length === 0 || clean.length > LIBRARY_LIMITS.tagCharacters ? undefined : clean
}

const badCursor = () =>
  invalid("cursor", "cursor is not one this service issued; pass nextCursor from the previous page unchanged")

/** Encodes the position after a tag in the name-ordered list. */
export const encodeTagCursor = (tag: { readonly name: string; readonly id: string }) =>
  Encoding.encodeBase64Url(JSON.stringify([tag.name, tag.id]))

/** Decodes a cursor made by `encodeTagCursor`. */
export const decodeTagCursor = (
  cursor: string
): Either.Either<{ readonly name: string; readonly id: string }, InvalidInput> =>
  Either.flatMap(
    Either.mapLeft(Encoding.decodeBase64UrlString(cursor), badCursor),
    (text): Either.Either<{ readonly name: string; readonly id: string }, InvalidInput> => {
      try {
        const value: unknown = JSON.parse(text)
        if (Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") {
          return Either.right({ name: value[0], id: value[1] })
        }
      } catch {
        // falls through to the cursor error
      }
      return Either.left(badCursor())
    }
  )

const checkNames = (path: string, names: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const out = new Map<string, string>()
    for (const [index, name] of names.entries()) {
      const clean = normaliseTagName(name)
      if (clean === undefined) {
        return yield* invalid(
          `${path}.${index}`,
          `a tag name is 1 to ${LIBRARY_LIMITS.tagCharacters} characters, not blank (got ${JSON.stringify(name.slice(0, 60))})`
        )
      }
      if (!out.has(clean.toLowerCase())) out.set(clean.toLowerCase(), clean)
    }
    return [...out.values()]
  })

/** Tags on items: add and remove by name (unknown names are created, case is ignored), list with counts. */
export class Tags extends Effect.Service<Tags>()("svc/boards/Tags", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const tags = yield* TagsRepo
    const ids = yield* Ids
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    /** Adds and removes tags on items; answers each item with all its tags. */
    const updateItemTags = (
      workspaceId: string,
      input: {
        readonly itemIds: ReadonlyArray<string>
        readonly add?: ReadonlyArray<string> | undefined
        readonly remove?: ReadonlyArray<string> | undefined
      }
    ) =>
      Effect.gen(function* () {
        const add = yield* checkNames("add", input.add ?? [])
        const remove = yield* checkNames("remove", input.remove ?? [])
        if (add.length === 0 && remove.length === 0) {
          return yield* invalid("add", "give at least one tag name in add or remove")
        }
        if (add.length + remove.length > LIBRARY_LIMITS.tagsPerCall) {
          return yield* invalid("add", `add and remove at most ${LIBRARY_LIMITS.tagsPerCall} tag names per call`)
        }
        const removing = new Set(remove.map((name) => name.toLowerCase()))
        const clash = add.find((name) => removing.has(name.toLowerCase()))
        if (clash !== undefined) return yield* invalid("remove", `"${clash}" is both added and removed; pick one`)
        const itemIds = [...new Set(input.itemIds)]
        const now = new Date(yield* Clock.currentTimeMillis)
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const found = yield* items.findSummaries(workspaceId, itemIds)
            const missing = itemIds.filter((id) => !found.some((item) => item.id === id))
            if (missing.length > 0) {
              return yield* new NotFound({
                message: `no item ${missing.join(", ")} in this workspace (or it is in the trash); svc_list_workspace_items lists the items`
              })
            }
            const ensured = yield* tags.ensure(workspaceId, add, () => ids.make("tag_"), now)
            for (const tag of ensured.filter((t) => t.created)) {
              yield* recordEvent(workspaceId, "tag.created", { tag_id: tag.id, name: tag.name })
            }
            yield* tags.attach(
              itemIds,
              ensured.map((t) => t.id)
            )
            const removed = yield* tags.findByNames(workspaceId, remove)
            yield* tags.detach(
              itemIds,
              removed.map((t) => t.id)
            )
            const names = yield* tags.namesOf(itemIds)
            for (const id of itemIds) {
              yield* recordEvent(workspaceId, "item.tags_updated", {
                item_id: id,
                added: ensured.map((t) => t.name),
                removed: removed.map((t) => t.name),
                tags: names.get(id) ?? []
              })
            }
            const order = new Map(itemIds.map((id, index) => [id, index]))
            return [...found]
              .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
              .map((item) => ({ item, tags: names.get(item.id) ?? [] }))
          })
        )
      }).pipe(withSpan("Tags.updateItemTags"))

    /** The workspace's tags by name, with item counts. */
    const list = (
      workspaceId: string,
      input: { readonly limit?: number | undefined; readonly cursor?: string | undefined }
    ) =>
      Effect.gen(function* () {
        const after = input.cursor === undefined ? undefined : yield* decodeTagCursor(input.cursor)
        const limit = input.limit ?? 25
        const rows = yield* tags.list(workspaceId, { limit: limit + 1, after })
        const kept = rows.slice(0, limit)
        const last = kept[kept.length - 1]
        return { tags: kept, nextCursor: rows.length > limit && last ? encodeTagCursor(last) : undefined }
      })

    /** Tag names of items. */
    const namesOf = (itemIds: ReadonlyArray<string>) => tags.namesOf(itemIds)

    return { updateItemTags, list, namesOf } as const
  })
}) {}
