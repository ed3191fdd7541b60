import * as path from "node:path"
import type { MediaStoreConfig } from "@svc/adapters/media"
import { DatabaseConfig } from "@svc/adapters/sql"
import { Config, Redacted } from "effect"

/**
 * Where media files go (docs/media.md): `SVC_MEDIA_STORE=filesystem` (the default) keeps them in `SVC_MEDIA_DIR`
 * (default `<DATA_DIR>/media`, also on PostgreSQL: one directory per instance, so several instances need `s3` or a
 * shared directory); `s3` puts them in an S3-compatible bucket (`S3_BUCKET`, `S3_REGION`, `S3_ENDPOINT` for a store
 * other than AWS, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`, `S3_FORCE_PATH_STYLE`).
 */
export const MediaConfig = Config.all({
  store: Config.literal("filesystem", "s3")("SVC_MEDIA_STORE").pipe(Config.withDefault("filesystem" as const)),
  directory: Config.option(Config.string("SVC_MEDIA_DIR")),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault(".data")),
  s3: Config.all({
    bucket: Config.string("S3_BUCKET").pipe(Config.withDefault("")),
    region: Config.string("S3_REGION").pipe(Config.withDefault("us-east-1")),
    endpoint: Config.option(Config.url("S3_ENDPOINT")),
    accessKeyId: Config.string("S3_ACCESS_KEY_ID").pipe(Config.withDefault("")),
    secretAccessKey: Config.redacted("S3_SECRET_ACCESS_KEY").pipe(Config.withDefault(Redacted.make(""))),
    forcePathStyle: Config.boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false))
  })
}).pipe(
  Config.validate({
    message: "SVC_MEDIA_STORE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
    validation: (media) =>
      media.store !== "s3" ||
      (media.s3.bucket !== "" && media.s3.accessKeyId !== "" && Redacted.value(media.s3.secretAccessKey) !== "")
  })
)

export type MediaConfig = Config.Config.Success<typeof MediaConfig>

/**
 * The blob store of the configuration, with upload URLs at `publicBase` for the filesystem store, whose directory
 * defaults to `media` in the embedded database's directory (`DATA_DIR`'s otherwise).
 */
export const mediaStoreOf = (media: MediaConfig, publicBase: string, database: DatabaseConfig): MediaStoreConfig =>
  media.store === "s3"
    ? {
        store: "s3",
        bucket: media.s3.bucket,
        region: media.s3.region,
        endpoint: media.s3.endpoint._tag === "Some" ? media.s3.endpoint.value.href.replace(/\/+$/, "") : undefined,
        accessKeyId: media.s3.accessKeyId,
        secretAccessKey: Redacted.value(media.s3.secretAccessKey),
        forcePathStyle: media.s3.forcePathStyle
      }
    : {
        store: "filesystem",
        directory:
          media.directory._tag === "Some"
            ? media.directory.value
            : path.join(
                DatabaseConfig.$is("Pglite")(database) && database.dataDir !== undefined
                  ? database.dataDir
                  : media.dataDir,
                "media"
              ),
        publicBase
      }
