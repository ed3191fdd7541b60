import { Clock, Effect } from "effect"
import { makeEventRecorder } from "../events/service.js"
import { Ids } from "../shared/ports.js"
import { HighlightsRepo } from "./ports.js"

/** What a save path knows about a capture it records. */
export interface CaptureInput {
  readonly itemId: string
  readonly sourceUrl: string | null
  readonly platform: string | null
  readonly title: string
  readonly text: string
}

/**
 * Writes highlights and captures inside the caller's transaction, each with its event; a passage already
 * saved from the same item answers the existing record and records nothing.
 */
export const makeClipWriter = Effect.gen(function* () {
  const repo = yield* HighlightsRepo
  const ids = yield* Ids
  const recordEvent = yield* makeEventRecorder

  /** Saves a passage of an item the caller has already checked is in the workspace. */
  const addHighlight = (workspaceId: string, itemId: string, text: string, note: string) =>
    Effect.gen(function* () {
      const at = new Date(yield* Clock.currentTimeMillis)
      const saved = yield* repo.insertHighlight({ id: yield* ids.make("hl_"), workspaceId, itemId, text, note, at })
      if (saved.created) {
        yield* recordEvent(workspaceId, "highlight.created", { highlight_id: saved.id, item_id: itemId })
      }
      return { id: saved.id, text, note: saved.note }
    })

  /** Saves the text of an item as a capture. */
  const addCapture = (workspaceId: string, capture: CaptureInput) =>
    Effect.gen(function* () {
      const at = new Date(yield* Clock.currentTimeMillis)
      const saved = yield* repo.insertCapture({ id: yield* ids.make("cap_"), workspaceId, ...capture, at })
      if (saved.created) {
        yield* recordEvent(workspaceId, "capture.created", { capture_id: saved.id, item_id: capture.itemId })
      }
      return saved.id
    })

  return { addHighlight, addCapture } as const
})
