/** Media files of a workspace: uploads checked from their bytes, kept in a blob store. */
export { capped, checkedMedia, isAllowedType } from "./checks.js"
export { MediaTooLarge, MediaTypeRefused, MediaUrlRefused, MissingParts, type MediaRefused } from "./errors.js"
export {
  type FetchedFile,
  type ImageFacts,
  MediaBlobs,
  MediaFetcher,
  MediaProbe,
  MediaRepo,
  type SentPart,
  type StoredBlob
} from "./ports.js"
export { MediaPurgeLive, mediaPurgeWorker } from "./purge.js"
export {
  assetKey,
  MEDIA_MAX_BYTES,
  MEDIA_TYPES,
  type MediaAsset,
  type MediaKind,
  type MediaThumbnail,
  THUMBNAIL_MAX_PX,
  thumbnailKey
} from "./schema.js"
export type { MediaFile } from "./intake.js"
export { MediaLibrary } from "./service.js"
export { MediaRecord, mediaRecord, mediaTools } from "./tools.js"
export {
  INLINE_UPLOAD_MAX_BYTES,
  type MediaUpload,
  type MediaUploadState,
  MULTIPART_PART_BYTES,
  MULTIPART_TTL_MS,
  type PartUrl,
  partCountOf,
  type PreparedParts,
  type PreparedUpload,
  UPLOAD_PURGE_GRACE_MS,
  UPLOAD_URL_TTL_MS
} from "./upload.js"
