import { Effect, Layer } from "effect"
import { loadOptional } from "../optional-package.js"
import { MediaFetcherLive } from "./fetcher.js"
import { MediaFilesystemLive } from "./filesystem.js"
import { MediaProbeLive } from "./probe.js"
import { MediaStoreSettings, type MediaStoreSettingsShape, type S3StoreSettings } from "./settings.js"
import { MediaUploadSignerLive } from "./upload-signer.js"

/**
 * `MediaBlobs` in an S3-compatible bucket (`s3.ts`), loaded when built: only a server that keeps media in a bucket
 * loads the AWS SDK.
 */
export const MediaS3Live = (settings: S3StoreSettings) =>
  Layer.unwrapEffect(
    Effect.map(
      // Optional peers of @svc/adapters (@svc/server brings them): a server that fails to start says what to install.
      loadOptional({
        packages: ["@aws-sdk/client-s3", "@aws-sdk/lib-storage", "@aws-sdk/s3-request-presigner"],
        purpose: "keeping media in an S3-compatible bucket (SVC_MEDIA_STORE=s3)",
        load: () => import("./s3.js")
      }).pipe(Effect.orDieWith((missing) => new Error(missing.message))),
      (s3) => s3.mediaS3Layer(settings)
    )
  )

/** Which blob store media go to. */
export type MediaStoreConfig =
  | ({ readonly store: "filesystem" } & MediaStoreSettingsShape)
  | ({ readonly store: "s3" } & S3StoreSettings)

/**
 * The media ports with the filesystem store under `MediaStoreSettings` (its default directory unless a layer sets
 * it), the probe, the importer and the upload URL signer. Needs the `SqlClient` the server key is kept in.
 */
export const MediaLocalLive = Layer.mergeAll(MediaFilesystemLive, MediaProbeLive, MediaFetcherLive).pipe(
  Layer.provideMerge(MediaUploadSignerLive)
)

/** The media ports for `config`: the filesystem store or an S3-compatible bucket, with the probe and the importer. */
export const mediaLayer = (config: MediaStoreConfig) => {
  const blobs =
    config.store === "s3"
      ? MediaS3Live(config)
      : MediaFilesystemLive.pipe(
          Layer.provide(
            Layer.succeed(MediaStoreSettings, { directory: config.directory, publicBase: config.publicBase })
          )
        )
  return Layer.mergeAll(blobs, MediaProbeLive, MediaFetcherLive).pipe(Layer.provideMerge(MediaUploadSignerLive))
}
