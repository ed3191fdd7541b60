import * as SqlClient from "@effect/sql/SqlClient"
import type { MediaAsset, MediaThumbnail, MediaUpload, MediaUploadState } from "@svc/core/media"
import { MediaRepo } from "@svc/core/media"
import { Effect, Layer, Option } from "effect"
import { jsonColumn } from "../json-column.js"
import { LeanSql } from "../lean.js"

interface AssetRow {
  readonly id: string
  readonly workspace_id: string
  readonly kind: MediaAsset["kind"]
  readonly mime_type: string
  readonly bytes: number
  readonly width: number | null
  readonly height: number | null
  readonly file_name: string | null
  readonly sha256: string
  readonly thumbnail: unknown
  readonly created_at: Date
}

interface UploadRow {
  readonly id: string
  readonly workspace_id: string
  readonly media_id: string
  readonly method: MediaUpload["method"]
  readonly state: MediaUploadState
  readonly file_name: string | null
  readonly storage_key: string
  readonly store_upload_id: string | null
  readonly declared_bytes: number | null
  readonly part_count: number | null
  readonly expires_at: Date
  readonly created_at: Date
}

const toAsset = (row: AssetRow): MediaAsset => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  mimeType: row.mime_type,
  bytes: row.bytes,
  width: row.width,
  height: row.height,
  fileName: row.file_name,
  sha256: row.sha256,
  thumbnail: (jsonColumn(row.thumbnail) ?? null) as MediaThumbnail | null,
  createdAt: row.created_at
})

const toUpload = (row: UploadRow): MediaUpload => ({
  id: row.id,
  workspaceId: row.workspace_id,
  mediaId: row.media_id,
  method: row.method,
  state: row.state,
  fileName: row.file_name,
  storageKey: row.storage_key,
  storeUploadId: row.store_upload_id,
  declaredBytes: row.declared_bytes,
  partCount: row.part_count,
  expiresAt: row.expires_at,
  createdAt: row.created_at
})

const firstUpload = (rows: ReadonlyArray<UploadRow>) => Option.map(Option.fromNullable(rows[0]), toUpload)

/** `MediaRepo` over SQL: `media_assets` (checked files) and `media_uploads` (uploads on their way). */
export const MediaRepoSql = Layer.effect(
  MediaRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lean = yield* LeanSql
    return {
      insertAsset: (a) =>
        lean`INSERT INTO media_assets (id, workspace_id, kind, mime_type, bytes, width, height, file_name, sha256,
                                       thumbnail, created_at)
             VALUES (${a.id}, ${a.workspaceId}, ${a.kind}, ${a.mimeType}, ${a.bytes}, ${a.width}, ${a.height},
                     ${a.fileName}, ${a.sha256}, ${a.thumbnail === null ? null : JSON.stringify(a.thumbnail)}::jsonb,
                     ${a.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      findAssets: (workspaceId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<AssetRow>`SELECT * FROM media_assets
                          WHERE workspace_id = ${workspaceId} AND id IN ${sql.in([...new Set(ids)])}`.pipe(
              Effect.map((rows) => rows.map(toAsset)),
              Effect.orDie
            ),
      insertUpload: (u) =>
        lean`INSERT INTO media_uploads (id, workspace_id, media_id, method, state, file_name, storage_key,
                                        store_upload_id, declared_bytes, part_count, expires_at, created_at)
             VALUES (${u.id}, ${u.workspaceId}, ${u.mediaId}, ${u.method}, ${u.state}, ${u.fileName}, ${u.storageKey},
                     ${u.storeUploadId}, ${u.declaredBytes}, ${u.partCount}, ${u.expiresAt},
                     ${u.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      findUpload: (id) =>
        lean<UploadRow>`SELECT * FROM media_uploads WHERE id = ${id}`.pipe(Effect.map(firstUpload), Effect.orDie),
      findUploadOf: (workspaceId, mediaId) =>
        lean<UploadRow>`SELECT * FROM media_uploads
                        WHERE workspace_id = ${workspaceId} AND media_id = ${mediaId}`.pipe(
          Effect.map(firstUpload),
          Effect.orDie
        ),
      // One statement: of two requests taking the same upload, exactly one sees its row change.
      transition: (id, from, to) =>
        lean<{ readonly id: string }>`UPDATE media_uploads SET state = ${to}
                                      WHERE id = ${id} AND state = ${from} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      expiredUploads: (before, limit) =>
        lean<UploadRow>`SELECT * FROM media_uploads WHERE expires_at < ${before}
                        ORDER BY expires_at LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toUpload)),
          Effect.orDie
        ),
      deleteUpload: (id) => lean`DELETE FROM media_uploads WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)
