/** What a media file is, as read from its bytes. */
export type MediaKind = "image" | "gif" | "video" | "pdf"

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
  /** A small WebP preview, for images and GIFs (null for other kinds). */
  readonly thumbnail: MediaThumbnail | null
  readonly createdAt: Date
}

/** A preview of an image, at most {@link THUMBNAIL_MAX_PX} on its longer side. */
export interface MediaThumbnail {
  readonly mimeType: string
  readonly width: number
  readonly height: number
  readonly bytes: number
}

/** The longer side of a thumbnail, in pixels. */
export const THUMBNAIL_MAX_PX = 320

/** Where an asset's bytes are kept in the blob store: one place per workspace and id. */
export const assetKey = (asset: Pick<MediaAsset, "workspaceId" | "id">): string => `${asset.workspaceId}/${asset.id}`

/** Where an asset's thumbnail is kept. */
export const thumbnailKey = (asset: Pick<MediaAsset, "workspaceId" | "id">): string =>
  `${asset.workspaceId}/${asset.id}.thumb`
