import { Clock, Duration, Effect, Layer, Option, Schedule } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { NotFound } from "../shared/errors.js"
import { Transactor } from "../shared/ports.js"
import { LIBRARY_LIMITS } from "../items/limits.js"
import { ItemsRepo, type StoredItem } from "../items/ports.js"
import { ItemSummary } from "../items/schema.js"
import { TrashRepo } from "./ports.js"
import { withSpan } from "../shared/spans.js"

const DAY_MS = 86_400_000
/** How long a trashed item can be restored before the purge deletes it. */
export const TRASH_RETENTION = Duration.days(LIBRARY_LIMITS.trashDays)
/** Items deleted per purge transaction, so one purge never holds locks for long. */
export const PURGE_BATCH = 100

const summaryOf = (item: StoredItem, trashedAt: Date | null, updatedAt = item.updatedAt) =>
  new ItemSummary({
    id: item.id,
    type: item.type,
    title: item.title,
    url: item.url,
    createdAt: item.createdAt,
    updatedAt,
    ...(trashedAt ? { trashedAt } : {})
  })

/** The trash: items go in (hidden from lists, boards and search), come back within 30 days, then are purged. */
export class Trash extends Effect.Service<Trash>()("svc/boards/Trash", {
  effect: Effect.gen(function* () {
    const items = yield* ItemsRepo
    const trash = yield* TrashRepo
    const tx = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    /**
     * Trashes an item (or restores it with `restore`); both are idempotent. `onlyType` narrows it to one kind
     * (svc_trash_board). Answers the item as it now is and, when in the trash, until when it can come back.
     */
    const setTrashed = (
      workspaceId: string,
      input: { readonly itemId: string; readonly restore?: boolean | undefined; readonly onlyType?: "board" }
    ) =>
      Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const kind = input.onlyType ?? "item"
        const missing = new NotFound({
          message: `no ${kind} ${input.itemId} in this workspace; svc_list_workspace_items lists them${
            input.restore ? " (with inTrash: true, the trash)" : ""
          }`
        })
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const found = yield* items.lockItem(workspaceId, input.itemId)
            if (Option.isNone(found) || (input.onlyType && found.value.type !== input.onlyType)) return yield* missing
            const item = found.value
            const expiresAt = (trashedAt: Date) => new Date(trashedAt.getTime() + LIBRARY_LIMITS.trashDays * DAY_MS)
            if (input.restore) {
              if (item.trashedAt === null) return { item: summaryOf(item, null), restorableUntil: undefined }
              if (expiresAt(item.trashedAt) <= now) {
                return yield* new NotFound({
                  message: `${input.itemId} was trashed more than ${LIBRARY_LIMITS.trashDays} days ago and can no longer be restored`
                })
              }
              yield* items.setTrashed(workspaceId, item.id, null)
              yield* recordEvent(workspaceId, "item.restored", { item_id: item.id, type: item.type })
              return { item: summaryOf(item, null), restorableUntil: undefined }
            }
            if (item.trashedAt !== null) {
              return { item: summaryOf(item, item.trashedAt), restorableUntil: expiresAt(item.trashedAt) }
            }
            yield* items.setTrashed(workspaceId, item.id, now)
            yield* recordEvent(workspaceId, "item.trashed", { item_id: item.id, type: item.type, title: item.title })
            return { item: summaryOf(item, now), restorableUntil: expiresAt(now) }
          })
        )
      }).pipe(withSpan("Trash.setTrashed"))

    /**
     * Deletes, in batches of `PURGE_BATCH`, every item trashed more than 30 days ago, recording `item.purged`
     * in each batch's transaction. Answers how many went.
     */
    const purgeExpired = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const cutoff = new Date(now - Duration.toMillis(TRASH_RETENTION))
      let total = 0
      while (true) {
        const purged = yield* tx.withTransaction(
          Effect.gen(function* () {
            const batch = yield* trash.purgeBefore(cutoff, PURGE_BATCH)
            yield* Effect.forEach(batch, (item) =>
              recordEvent(item.workspaceId, "item.purged", { item_id: item.id, type: item.type, title: item.title })
            )
            return batch.length
          })
        )
        total += purged
        if (purged < PURGE_BATCH) return total
      }
    }).pipe(withSpan("Trash.purgeExpired"))

    return { setTrashed, purgeExpired } as const
  })
}) {}

/**
 * Runs `Trash.purgeExpired` now and then every `every` (default one hour) for the life of the layer's scope;
 * a failed run is logged and the next one runs on schedule. Provide `Trash` (from `CoreLive`).
 */
export const trashPurgeWorker = (every: Duration.DurationInput = Duration.hours(1)) =>
  Effect.flatMap(Trash, (trash) =>
    trash.purgeExpired.pipe(
      Effect.tap((count) => (count > 0 ? Effect.logInfo(`purged ${count} items from the trash`) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logError("trash purge failed", cause)),
      Effect.repeat(Schedule.spaced(every)),
      Effect.asVoid
    )
  )

/** A layer that keeps `trashPurgeWorker` running in the background while it is alive. */
export const TrashPurgeLive = (every?: Duration.DurationInput) =>
  Layer.scopedDiscard(Effect.forkScoped(trashPurgeWorker(every)))
