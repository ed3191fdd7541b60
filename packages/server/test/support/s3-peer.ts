/** A local S3-compatible server (s3rver) on an ephemeral port, over a temporary directory, for the S3 media store. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import S3rver from "s3rver"

/** s3rver's built-in account. */
export const S3RVER_KEY = "S3RVER"

/** A running s3rver with one bucket: its endpoint, the directory it keeps objects in, and how to stop it. */
export interface S3Peer {
  readonly endpoint: string
  readonly bucket: string
  readonly directory: string
  /** The server's environment for this bucket. */
  readonly env: Record<string, string>
  readonly stop: () => Promise<void>
}

/** Starts s3rver on 127.0.0.1 with the bucket `bucket`. */
export const startS3Peer = async (bucket = "media"): Promise<S3Peer> => {
  const directory = mkdtempSync(join(tmpdir(), "svc-s3rver-"))
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }]
  })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    directory,
    env: {
      SVC_MEDIA_STORE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: "true"
    },
    stop: async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    }
  }
}
