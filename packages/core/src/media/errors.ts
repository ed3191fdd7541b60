import { Schema } from "effect"

/** The file is over the size limit; refused while it streamed, before the rest of it was read. */
export class MediaTooLarge extends Schema.TaggedError<MediaTooLarge>()("MediaTooLarge", {
  message: Schema.String,
  maxBytes: Schema.Number
}) {}

/** The file's bytes are not one of the allowed types (whatever its name or declared type says). */
export class MediaTypeRefused extends Schema.TaggedError<MediaTypeRefused>()("MediaTypeRefused", {
  message: Schema.String,
  /** The type read from the bytes, when one was recognised. */
  detected: Schema.NullOr(Schema.String)
}) {}

/** What a media file can be refused for, whichever path it came by. */
export type MediaRefused = MediaTooLarge | MediaTypeRefused

/** Parts of a multipart upload that never arrived. */
export class MissingParts extends Schema.TaggedError<MissingParts>()("MissingParts", {
  partNumbers: Schema.Array(Schema.Number)
}) {}

/** A URL the importer will not fetch (not https, a private address, an error status), with why. */
export class MediaUrlRefused extends Schema.TaggedError<MediaUrlRefused>()("MediaUrlRefused", {
  message: Schema.String
}) {}
