// s3rver ships no types; the part of its API the media tests use.
declare module "s3rver" {
  import type { AddressInfo } from "node:net"

  interface S3rverOptions {
    readonly address?: string
    readonly port?: number
    readonly silent?: boolean
    readonly directory?: string
    readonly configureBuckets?: ReadonlyArray<{ readonly name: string; readonly configs?: ReadonlyArray<string> }>
  }

  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
