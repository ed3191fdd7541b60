/**
 * The admin channel: how `svc <command>` reaches a server that holds the embedded data directory. Both ends read
 * this file: the socket's place and the shape of a request and its answer (HTTP over a Unix socket, JSON bodies).
 */
import * as path from "node:path"
import { Data, Either, Schema } from "effect"

/** The socket's file name inside the data directory. */
export const ADMIN_SOCKET_FILE = "svc.sock"

/** The one route of the channel: `POST` a command, get back what it printed and its exit code. */
export const ADMIN_COMMAND_PATH = "/v1/commands"

/** The largest request body the server reads (the argv of one command). */
export const ADMIN_MAX_REQUEST_BYTES = 64 * 1024

// `sun_path` holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
const MAX_SOCKET_PATH_BYTES = 103

/** A command for the server: the words after `svc`, exactly as typed (`--json` included). */
export const AdminRequest = Schema.Struct({
  argv: Schema.Array(Schema.String.pipe(Schema.maxLength(16 * 1024))).pipe(Schema.maxItems(256))
})
export type AdminRequest = typeof AdminRequest.Type

/** What the command printed, line by line, and its exit code: what the CLI prints and exits with. */
export const AdminReply = Schema.Struct({
  exitCode: Schema.Int,
  stdout: Schema.Array(Schema.String),
  stderr: Schema.Array(Schema.String)
})
export type AdminReply = typeof AdminReply.Type

/** A request the server would not run, and why. */
export const AdminRefusal = Schema.Struct({ error: Schema.String })

/** The data directory's path is too long for a Unix socket inside it. */
export class AdminSocketPathTooLong extends Data.TaggedError("AdminSocketPathTooLong")<{
  readonly socketPath: string
}> {
  override get message(): string {
    return `the admin socket path ${this.socketPath} is longer than the ${MAX_SOCKET_PATH_BYTES} bytes a Unix socket allows; use a shorter DATA_DIR`
  }
}

/** The admin socket of a data directory, `<dataDir>/svc.sock`, or why it cannot be one. */
export const adminSocketPath = (dataDir: string): Either.Either<string, AdminSocketPathTooLong> => {
  const socketPath = path.join(path.resolve(dataDir), ADMIN_SOCKET_FILE)
  return Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES
    ? Either.left(new AdminSocketPathTooLong({ socketPath }))
    : Either.right(socketPath)
}
