/** Uploads the client sends straight to the blob store (or to this server's upload URLs), and their limits. */

/** How long a prepared upload URL may be used. */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000

/** How long a multipart upload may take from `start` to `complete`. */
export const MULTIPART_TTL_MS = 60 * 60 * 1000

/** The size of every part of a multipart upload but the last. */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024

/** The largest file the upload tool takes inline as base64 (decoded). */
export const INLINE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024

/** How long after its expiry an unfinished upload's bytes are kept before the purge deletes them. */
export const UPLOAD_PURGE_GRACE_MS = 60 * 60 * 1000

/** `pending`: waiting for its bytes; `receiving`: being checked and stored; then `complete` or `failed`. */
export type MediaUploadState = "pending" | "receiving" | "complete" | "failed"

/** An upload in progress: the asset it becomes (`mediaId`) exists only once it is `complete`. */
export interface MediaUpload {
  /** `mup_…` */
  readonly id: string
  readonly workspaceId: string
  /** The id the asset takes once complete (`med_…`), known from the start so a post may name it. */
  readonly mediaId: string
  /** One PUT of the whole file, or parts. */
  readonly method: "single" | "multipart"
  readonly state: MediaUploadState
  readonly fileName: string | null
  /** Where the bytes land in the blob store until they are checked. */
  readonly storageKey: string
  /** For multipart: the store's own upload id (S3), the declared size and the part count. */
  readonly storeUploadId: string | null
  readonly declaredBytes: number | null
  readonly partCount: number | null
  readonly expiresAt: Date
  readonly createdAt: Date
}

/** The URL a client sends a whole file to. */
export interface PreparedUpload {
  readonly upload: MediaUpload
  readonly url: string
}

/** One part's URL. */
export interface PartUrl {
  readonly partNumber: number
  readonly url: string
}

/** A multipart upload and the URLs of the parts asked for. */
export interface PreparedParts {
  readonly upload: MediaUpload
  readonly partBytes: number
  readonly parts: ReadonlyArray<PartUrl>
}

/** The number of parts a file of `bytes` is sent in. */
export const partCountOf = (bytes: number): number => Math.max(1, Math.ceil(bytes / MULTIPART_PART_BYTES))
