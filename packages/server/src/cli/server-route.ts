/**
 * Where a command runs: in this process on the database it opens, or, while `svc serve` holds the embedded data
 * directory, in that server, reached over its admin socket. PGlite allows one writer per directory, so a command
 * never opens a directory a live server holds.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import {
  DatabaseConfig,
  DataDirHolder,
  databaseConfig,
  dataDirHolder,
  removeStaleLock,
  staleLockMessage
} from "@svc/adapters/sql"
import { Data, Duration, Effect, Either, Schema } from "effect"
import {
  ADMIN_COMMAND_PATH,
  AdminRefusal,
  AdminReply,
  type AdminRequest,
  type AdminSocketPathTooLong,
  adminSocketPath
} from "../admin-channel.js"

/** Run here; `notice` is a line for standard error first (a stale lock was cleaned). */
export interface RunHere {
  readonly _tag: "RunHere"
  readonly notice: string | undefined
}

/** Send to the server `pid` that holds `dataDir`, over `socketPath`. */
export interface SendToServer {
  readonly _tag: "SendToServer"
  readonly pid: number
  readonly dataDir: string
  readonly socketPath: Either.Either<string, AdminSocketPathTooLong>
}

/** Where a command goes. */
export type Route = RunHere | SendToServer

/** The server holds the data directory, but its admin socket cannot take the command. */
export class ServerUnreachable extends Data.TaggedError("ServerUnreachable")<{
  readonly pid: number
  readonly dataDir: string
  readonly reason: string
}> {
  override get message(): string {
    return `the server (pid ${this.pid}) holds the data directory ${this.dataDir}, but its admin channel ${this.reason}; restart the server, or stop it to run the command here`
  }
}

const here = (notice?: string): Route => ({ _tag: "RunHere", notice })

const removeStaleSocket = (dataDir: string) =>
  Effect.sync(() => {
    const socketPath = adminSocketPath(dataDir)
    if (Either.isRight(socketPath)) fs.rmSync(socketPath.right, { force: true })
  })

/**
 * Decides where a command runs, from the environment's database. PostgreSQL, an in-memory database and a free
 * directory: here. A directory a live process holds: that server. A lock whose process is gone (the server was
 * killed): the lock and the socket are removed, with a notice, and the command runs here. Failing to look (a
 * configuration error, an unreadable directory) also answers "here", where opening the database reports it.
 */
export const routeCommand: Effect.Effect<Route> = Effect.gen(function* () {
  const database = yield* databaseConfig
  if (!DatabaseConfig.$is("Pglite")(database) || database.dataDir === undefined) return here()
  const dataDir = database.dataDir
  const holder = yield* dataDirHolder(dataDir)
  return yield* DataDirHolder.$match(holder, {
    Free: () => Effect.succeed(here()),
    Held: ({ pid }): Effect.Effect<Route> =>
      Effect.succeed({ _tag: "SendToServer", pid, dataDir, socketPath: adminSocketPath(dataDir) }),
    Stale: ({ pid }) =>
      Effect.gen(function* () {
        // Removed only while it still names the dead process; a server starting right now keeps its own.
        if (!(yield* removeStaleLock(dataDir, pid))) return yield* routeCommand
        yield* removeStaleSocket(dataDir)
        return here(`svc: ${staleLockMessage(pid)}`)
      })
  })
}).pipe(Effect.orElseSucceed(() => here()))

// How long a command may take on the server before the CLI gives up on it.
const FORWARD_TIMEOUT = Duration.minutes(5)

// Only a socket of our own, closed to everyone else, is trusted with a command (which may carry a password): a
// socket put there by another user who can write to the directory is refused.
const checkSocket = (socketPath: string): string | undefined => {
  let stat: fs.Stats
  try {
    stat = fs.statSync(socketPath)
  } catch {
    return `socket ${socketPath} is missing`
  }
  if (!stat.isSocket()) return `${socketPath} is not a socket`
  if (process.getuid !== undefined && stat.uid !== process.getuid()) {
    return `socket ${socketPath} belongs to another user (uid ${stat.uid})`
  }
  if ((stat.mode & 0o077) !== 0) {
    return `socket ${socketPath} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`
  }
  return undefined
}

const post = (socketPath: string, request: AdminRequest) =>
  Effect.async<{ readonly status: number; readonly body: string }, string>((resume) => {
    const body = JSON.stringify(request)
    const outgoing = http.request(
      {
        socketPath,
        // A connection of its own: one command, then the process ends (no pooled connection the server closed).
        agent: false,
        method: "POST",
        path: ADMIN_COMMAND_PATH,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
      },
      (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("error", (error) => resume(Effect.fail(`socket ${socketPath} failed: ${error.message}`)))
        response.on("end", () =>
          resume(Effect.succeed({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
        )
      }
    )
    outgoing.on("error", (error) => resume(Effect.fail(`socket ${socketPath} does not answer (${error.message})`)))
    outgoing.end(body)
    return Effect.sync(() => outgoing.destroy())
  })

const decodeReply = Schema.decodeUnknownEither(Schema.parseJson(AdminReply))
const decodeRefusal = Schema.decodeUnknownEither(Schema.parseJson(AdminRefusal))

/** Sends a command to the server over its admin socket and answers what it printed and its exit code. */
export const sendToServer = (route: SendToServer, argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const unreachable = (reason: string) => new ServerUnreachable({ pid: route.pid, dataDir: route.dataDir, reason })
    if (process.platform === "win32") {
      return yield* unreachable("is a Unix socket, which this platform does not have (Linux and macOS do)")
    }
    if (Either.isLeft(route.socketPath)) return yield* unreachable(`cannot exist: ${route.socketPath.left.message}`)
    const socketPath = route.socketPath.right
    const refused = checkSocket(socketPath)
    if (refused !== undefined) return yield* unreachable(refused)
    const answer = yield* post(socketPath, { argv: [...argv] }).pipe(
      Effect.timeoutFail({
        duration: FORWARD_TIMEOUT,
        onTimeout: () => `socket ${socketPath} gave no answer within ${Duration.format(FORWARD_TIMEOUT)}`
      }),
      Effect.mapError(unreachable)
    )
    if (answer.status === 200) {
      const reply = decodeReply(answer.body)
      if (Either.isRight(reply)) return reply.right
    }
    const refusal = decodeRefusal(answer.body)
    return yield* unreachable(
      `refused the command (HTTP ${answer.status}${Either.isRight(refusal) ? `: ${refusal.right.error}` : ""})`
    )
  })
