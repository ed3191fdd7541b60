import { Context } from "effect"

/** Where the filesystem store keeps media, and where clients reach this server to upload to it. */
export interface MediaStoreSettingsShape {
  /** The directory of the filesystem store (the server's `SVC_MEDIA_DIR`, default `<DATA_DIR>/media`). */
  readonly directory: string
  /** The public base URL upload URLs start with (the server's `PUBLIC_URL`), without a trailing slash. */
  readonly publicBase: string
}

/** The filesystem store's settings: `./.svc-media` and `http://127.0.0.1:8787` unless a layer says else. */
export class MediaStoreSettings extends Context.Reference<MediaStoreSettings>()("svc/media/MediaStoreSettings", {
  defaultValue: (): MediaStoreSettingsShape => ({ directory: ".svc-media", publicBase: "http://127.0.0.1:8787" })
}) {}

/** An S3-compatible bucket (AWS S3, MinIO, R2, …) and how to reach it. */
export interface S3StoreSettings {
  readonly bucket: string
  readonly region: string
  /** Unset: AWS itself. */
  readonly endpoint?: string | undefined
  readonly accessKeyId: string
  readonly secretAccessKey: string
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, s3rver, most self-hosted stores). */
  readonly forcePathStyle: boolean
  /** Prefix of every key, e.g. `svc/`; default none. */
  readonly prefix?: string | undefined
}
