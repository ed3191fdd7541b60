import { Either } from "effect"
import type { MediaAsset } from "../media/schema.js"
import { type InvalidInput, invalid } from "../shared/errors.js"
import { PLATFORM_RULES, type Platform } from "./platforms.js"
import { THREAD_POSTS_MAX } from "./schema.js"
import { graphemeCount, splitThread } from "./thread-split.js"

/** A media file of a post, checked to exist, with its alt text. */
export interface CheckedMedia {
  readonly asset: MediaAsset
  readonly altText: string | null
}

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`

/**
 * Checks a post against one platform's rules, so it is refused when it is made rather than when it goes out.
 * `invalid` names the field and the platform's rule.
 */
export const checkForPlatform = (
  platform: Platform,
  text: string,
  media: ReadonlyArray<CheckedMedia>,
  numberThread: boolean
): Either.Either<void, InvalidInput> => {
  const rules = PLATFORM_RULES[platform]
  if (rules === undefined) return Either.void
  const length = graphemeCount(text.trim())
  if (length > rules.textMax) {
    if (!rules.threads) {
      return Either.left(
        invalid("text", `${platform} takes at most ${rules.textMax} characters; this text has ${length}`)
      )
    }
    const parts = splitThread(text, rules.textMax, numberThread).length
    if (parts > THREAD_POSTS_MAX) {
      return Either.left(
        invalid(
          "text",
          `on ${platform} this text would be a thread of ${parts} posts (${rules.textMax} characters each); at most ${THREAD_POSTS_MAX}: shorten it`
        )
      )
    }
  }
  if (media.length > rules.mediaMax) {
    return Either.left(invalid("media", `${platform} takes at most ${rules.mediaMax} media files on a post`))
  }
  const hasVideo = media.some(({ asset }) => asset.kind === "video")
  if (rules.videoAlone && hasVideo && media.length > 1) {
    return Either.left(invalid("media", `${platform} takes a video alone: one video, or images without a video`))
  }
  for (const [i, { asset, altText }] of media.entries()) {
    if (!rules.kinds.includes(asset.kind)) {
      return Either.left(
        invalid(
          `media.${i}`,
          `${platform} does not take ${asset.kind} files (${asset.id}); it takes ${rules.kinds.join(", ")}`
        )
      )
    }
    const max = asset.kind === "video" ? rules.videoMaxBytes : rules.imageMaxBytes
    if (asset.bytes > max) {
      return Either.left(
        invalid(
          `media.${i}`,
          `${platform} takes ${asset.kind} files up to ${mb(max)}; ${asset.id} is ${mb(asset.bytes)}`
        )
      )
    }
    if (altText !== null && altText.length > rules.altTextMax) {
      return Either.left(
        invalid(`media.${i}.altText`, `${platform} takes alt text up to ${rules.altTextMax} characters`)
      )
    }
  }
  return Either.void
}
