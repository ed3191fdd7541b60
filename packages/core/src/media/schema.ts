import type { MediaKind } from "../scheduling/platforms.js"

/** The largest media file, in bytes (the spec's 100 MB). */
export const MEDIA_MAX_BYTES = 100 * 1024 * 1024

/** The types a media file may be, detected from its bytes, with the kind each is. */
export const MEDIA_TYPES: Readonly<Record<string, MediaKind>> = {
  "image/jpeg": "image",
  "image/png": "image",
  "image/webp": "image",
  "image/gif": "gif",
  "application/pdf": "pdf",
  "video/mp4": "video",
  "video/quicktime": "video",
  "video/webm": "video"
}

/**
 * A media file of a workspace, complete and checked: only a file whose bytes were read to the end, within the size
 * limit and of an allowed type, becomes an asset a post may name.
 */
export interface MediaAsset {
  /** `med_…` */
  readonly id: string
  readonly workspaceId: string
  readonly kind: MediaKind
  /** The type detected from the bytes. */
  readonly mimeType: string
  readonly bytes: number
  /** Pixels, for images and GIFs (null for other kinds, or when unknown). */
  readonly width: number | null
  readonly height: number | null
  /** The name the uploader gave, for people; never used to decide the type. */
  readonly fileName: string | null
  /** The SHA-256 of the bytes, lower-case hex. */
  readonly sha256: string
  readonly createdAt: Date
}
