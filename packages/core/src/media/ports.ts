import { Context, type Effect, type Option, type Stream } from "effect"
import type { Unreachable } from "../shared/errors.js"
import type { MediaUrlRefused, MissingParts } from "./errors.js"
import type { MediaAsset } from "./schema.js"
import type { MediaUpload, MediaUploadState, PartUrl } from "./upload.js"

/** What was written: the byte count and the SHA-256 (lower-case hex) of the bytes. */
export interface StoredBlob {
  readonly bytes: number
  readonly sha256: string
}

/**
 * Where media bytes are kept: a directory, or an S3-compatible bucket. Keys are `/`-separated paths. A blob is
 * visible under its key only once written whole (a temporary name then a rename, or a store's atomic put).
 */
export class MediaBlobs extends Context.Tag("svc/media/MediaBlobs")<
  MediaBlobs,
  {
    /**
     * Whether upload URLs point at this server (which then streams the bytes through the same checks as a direct
     * upload) rather than at the store itself.
     */
    readonly receivesUploads: boolean
    /** Writes `body` under `key`; on any failure (the body's included) nothing is left under `key`. */
    readonly put: <E>(key: string, body: Stream.Stream<Uint8Array, E>) => Effect.Effect<StoredBlob, E>
    /** The bytes under `key`, streamed. */
    readonly open: (key: string) => Stream.Stream<Uint8Array>
    /** The size of the blob under `key`, if there is one. */
    readonly size: (key: string) => Effect.Effect<Option.Option<number>>
    /** Up to the first `length` bytes under `key` (a ranged read: the rest is not fetched). */
    readonly readStart: (key: string, length: number) => Effect.Effect<Uint8Array>
    /** The byte count and SHA-256 of the blob under `key`, read as a stream. */
    readonly digest: (key: string) => Effect.Effect<StoredBlob>
    /** Moves a blob to another key (the old one is gone after). */
    readonly move: (from: string, to: string) => Effect.Effect<void>
    /** Deletes the blobs under these keys; a key with nothing under it is no error. */
    readonly remove: (keys: ReadonlyArray<string>) => Effect.Effect<void>
    /** A URL to PUT the whole file of `upload` to, until `upload.expiresAt`. */
    readonly uploadUrl: (upload: MediaUpload) => Effect.Effect<string>
    /** Starts a multipart upload to `key`; answers the store's id for it (null where the store needs none). */
    readonly startParts: (key: string) => Effect.Effect<string | null>
    /** URLs to PUT the given parts (1-based) of `upload` to, until `upload.expiresAt`. */
    readonly partUrls: (
      upload: MediaUpload,
      partNumbers: ReadonlyArray<number>
    ) => Effect.Effect<ReadonlyArray<PartUrl>>
    /**
     * Joins the parts received for `upload` into one blob under its `storageKey`, in part order; fails with the part
     * numbers missing when some of the `partCount` never arrived. `sent`: the parts as the client sent them, with the
     * ETags the store answered (else the store is asked which it holds).
     */
    readonly finishParts: (upload: MediaUpload, sent?: ReadonlyArray<SentPart>) => Effect.Effect<void, MissingParts>
    /** Drops whatever was received of a multipart upload (its parts, the store's upload). */
    readonly abortParts: (upload: MediaUpload) => Effect.Effect<void>
    /** Writes one part of a multipart upload this server receives (`receivesUploads`). */
    readonly putPart: <E>(
      upload: MediaUpload,
      partNumber: number,
      body: Stream.Stream<Uint8Array, E>
    ) => Effect.Effect<StoredBlob, E>
  }
>() {}

/** A part a client sent straight to the store, with the ETag the store answered. */
export interface SentPart {
  readonly partNumber: number
  readonly etag: string
}

/** What an image is, read from its bytes. */
export interface ImageFacts {
  readonly width: number
  readonly height: number
  /** A WebP preview at most `THUMBNAIL_MAX_PX` on its longer side. */
  readonly thumbnail: { readonly bytes: Uint8Array; readonly width: number; readonly height: number }
}

/** Reads what a file is from its bytes: the type (from the first bytes), and for images their size and a preview. */
export class MediaProbe extends Context.Tag("svc/media/MediaProbe")<
  MediaProbe,
  {
    /** How many first bytes `detect` needs to decide. */
    readonly sniffBytes: number
    /** The MIME type the bytes start like, if any known one (not only the allowed ones). */
    readonly detect: (head: Uint8Array) => Effect.Effect<Option.Option<string>>
    /** An image's dimensions and preview; none when the bytes do not decode as an image. */
    readonly image: (bytes: Stream.Stream<Uint8Array>) => Effect.Effect<Option.Option<ImageFacts>>
  }
>() {}

/** A file fetched from a URL, streamed: nothing is read until the body is. */
export interface FetchedFile {
  /** The last path segment of the URL, for people; never used to decide the type. */
  readonly fileName: string | null
  /** The declared length, when the server sent one. */
  readonly declaredBytes: number | null
  readonly body: Stream.Stream<Uint8Array, Unreachable>
}

/**
 * Fetches media files from URLs the user gave, with the outgoing-HTTP rules (https, public addresses only, the
 * connection pinned to the checked address, no redirects followed, one deadline).
 */
export class MediaFetcher extends Context.Tag("svc/media/MediaFetcher")<
  MediaFetcher,
  { readonly fetch: (url: string) => Effect.Effect<FetchedFile, Unreachable | MediaUrlRefused> }
>() {}

/** Stored assets and uploads in progress. */
export class MediaRepo extends Context.Tag("svc/media/MediaRepo")<
  MediaRepo,
  {
    readonly insertAsset: (asset: MediaAsset) => Effect.Effect<void>
    /** The workspace's assets among `ids` (in no order; unknown ids and other workspaces' are left out). */
    readonly findAssets: (workspaceId: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<MediaAsset>>
    readonly insertUpload: (upload: MediaUpload) => Effect.Effect<void>
    /** An upload by id alone (the upload URL names no workspace). */
    readonly findUpload: (id: string) => Effect.Effect<Option.Option<MediaUpload>>
    /** The workspace's upload that becomes the asset `mediaId`, if any. */
    readonly findUploadOf: (workspaceId: string, mediaId: string) => Effect.Effect<Option.Option<MediaUpload>>
    /** Moves an upload from `from` to `to`; false when it was not in `from` (someone else took it). */
    readonly transition: (id: string, from: MediaUploadState, to: MediaUploadState) => Effect.Effect<boolean>
    /** Up to `limit` uploads that expired before `before`, whatever their state, oldest first. */
    readonly expiredUploads: (before: Date, limit: number) => Effect.Effect<ReadonlyArray<MediaUpload>>
    readonly deleteUpload: (id: string) => Effect.Effect<void>
  }
>() {}
