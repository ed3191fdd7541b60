import { Duration, Effect, Layer, Schedule } from "effect"
import { MediaLibrary } from "./service.js"

/**
 * Runs `MediaLibrary.purgeExpired` now and then every `every` (default 15 minutes) for the life of the layer's
 * scope; a failed run is logged and the next one runs on schedule. Provide `MediaLibrary` (from `CoreLive`).
 */
export const mediaPurgeWorker = (every: Duration.DurationInput = Duration.minutes(15)) =>
  Effect.flatMap(MediaLibrary, (media) =>
    media.purgeExpired.pipe(
      Effect.tap((count) => (count > 0 ? Effect.logInfo(`purged ${count} abandoned media uploads`) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logError("media purge failed", cause)),
      Effect.repeat(Schedule.spaced(every)),
      Effect.asVoid
    )
  )

/** A layer that keeps `mediaPurgeWorker` running in the background while it is alive. */
export const MediaPurgeLive = (every?: Duration.DurationInput) =>
  Layer.scopedDiscard(Effect.forkScoped(mediaPurgeWorker(every)))
