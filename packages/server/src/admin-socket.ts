/**
 * The server's end of the admin channel: while `svc serve` holds an embedded data directory, it takes the CLI's
 * commands on `<dataDir>/svc.sock` and runs them on its own services, with the very code the CLI runs.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import { DatabaseConfig, databaseConfig } from "@svc/adapters/sql"
import { Effect, Either, FiberSet, Layer, Schema } from "effect"
import {
  ADMIN_COMMAND_PATH,
  ADMIN_MAX_REQUEST_BYTES,
  type AdminReply,
  AdminRequest,
  adminSocketPath
} from "./admin-channel.js"
import type { CommandRunner, CommandServices } from "./cli/command-context.js"
import { runCommandLine } from "./cli/main.js"
import { UsageError } from "./cli/output.js"

const decodeRequest = Schema.decodeUnknownEither(Schema.parseJson(AdminRequest))

const answer = (response: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

type Run = (argv: ReadonlyArray<string>) => Promise<AdminReply>

const handle = (run: Run) => (request: http.IncomingMessage, response: http.ServerResponse) => {
  if (request.url !== ADMIN_COMMAND_PATH)
    return answer(response, 404, { error: `no route; POST ${ADMIN_COMMAND_PATH}` })
  if (request.method !== "POST") return answer(response, 405, { error: `POST ${ADMIN_COMMAND_PATH}` })
  if (!/^application\/json\s*(;|$)/i.test(request.headers["content-type"] ?? "")) {
    return answer(response, 415, { error: "the body must be application/json" })
  }
  const chunks: Array<Buffer> = []
  let size = 0
  request.on("data", (chunk: Buffer) => {
    size += chunk.length
    if (size <= ADMIN_MAX_REQUEST_BYTES) chunks.push(chunk)
    else if (!response.headersSent) {
      // Answered, then the connection dropped: the rest of the body is not read.
      response.setHeader("connection", "close")
      response.once("finish", () => request.destroy())
      answer(response, 413, { error: `the body is over ${ADMIN_MAX_REQUEST_BYTES} bytes` })
    }
  })
  request.on("end", () => {
    if (size > ADMIN_MAX_REQUEST_BYTES) return
    const decoded = decodeRequest(Buffer.concat(chunks).toString("utf8"))
    if (Either.isLeft(decoded)) return answer(response, 400, { error: 'the body must be {"argv": [string, ...]}' })
    run(decoded.right.argv).then(
      (reply) => answer(response, 200, reply),
      () => answer(response, 500, { error: "the command was interrupted" })
    )
  })
}

// Listens with a umask that leaves the socket to its owner alone: `listen` on a path binds synchronously, so the
// socket never exists with wider rights, and the umask is back before any other code runs.
const listenPrivately = (server: http.Server, socketPath: string) =>
  Effect.async<void, Error>((resume) => {
    const failed = (error: Error) => resume(Effect.fail(error))
    server.once("error", failed)
    const previous = process.umask(0o177)
    try {
      server.listen(socketPath, () => {
        server.off("error", failed)
        resume(Effect.void)
      })
    } finally {
      process.umask(previous)
    }
  })

const serveSocket = (socketPath: string) =>
  Effect.gen(function* () {
    // Commands run on the server's own services, as fibers of this layer: stopping the server interrupts them.
    const services = yield* Effect.context<CommandServices>()
    const runFiber = yield* FiberSet.makeRuntimePromise()
    const runner: CommandRunner = {
      app: (program) => Effect.provide(program, services),
      database: (program) => Effect.provide(program, services),
      serve: new UsageError({
        message: "this server is running already; svc serve starts a server in a process of its own"
      })
    }
    const run: Run = (argv) => {
      // The wizard asks its questions on a terminal, which the server's is not: the CLI runs the command it printed.
      if (argv.includes("--wizard")) {
        return Promise.resolve({
          exitCode: 2,
          stdout: [],
          stderr: ["svc: --wizard cannot run inside the running server; run the command the wizard printed"]
        })
      }
      const stdout: Array<string> = []
      const stderr: Array<string> = []
      const lines = { stdout: (line: string) => stdout.push(line), stderr: (line: string) => stderr.push(line) }
      return runFiber(Effect.map(runCommandLine(argv, lines, runner), (exitCode) => ({ exitCode, stdout, stderr })))
    }
    // This process holds the directory's lock, so a socket already there was left by a server that was killed.
    const stale = yield* Effect.try({
      try: () => {
        if (!fs.existsSync(socketPath)) return false
        fs.rmSync(socketPath, { force: true })
        return true
      },
      catch: (cause) => new Error(`cannot remove the stale ${socketPath}: ${String(cause)}`)
    })
    if (stale) yield* Effect.logWarning(`removed a stale admin socket ${socketPath}`)
    const server = http.createServer(handle(run))
    const listening = listenPrivately(server, socketPath).pipe(
      // Already 0600 by the umask; set once more, so the socket is private even where a platform binds otherwise.
      Effect.andThen(() =>
        Effect.try(() => {
          fs.chmodSync(socketPath, 0o600)
          return fs.statSync(socketPath).ino
        })
      ),
      Effect.tapError(() => Effect.sync(() => server.close())),
      Effect.mapError((cause) => new Error(`cannot listen on ${socketPath}: ${String(cause)}`))
    )
    yield* Effect.acquireRelease(listening, (inode) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      }).pipe(
        // Only our own socket: a later server on the directory may already have put its own in place.
        Effect.andThen(() => {
          if (fs.statSync(socketPath, { throwIfNoEntry: false })?.ino === inode) fs.rmSync(socketPath, { force: true })
        }),
        Effect.catchAllDefect((cause) => Effect.logWarning(`could not remove ${socketPath}`, cause))
      )
    )
    yield* Effect.logInfo(`admin commands (svc keys, svc store, ...) reach this server over ${socketPath}`)
  })

/**
 * On an embedded data directory, serves the admin socket for as long as the server runs and removes it on the way
 * out. On PostgreSQL nothing: commands open the database themselves beside the server.
 */
export const AdminSocketLive: Layer.Layer<never, never, CommandServices> = Layer.scopedDiscard(
  Effect.gen(function* () {
    const database = yield* Effect.orDie(databaseConfig)
    if (!DatabaseConfig.$is("Pglite")(database) || database.dataDir === undefined) return
    // Without the socket the server still serves; only the commands beside it are unavailable, and they say why.
    if (process.platform === "win32") {
      return yield* Effect.logWarning("no admin socket on Windows: stop the server to run svc commands")
    }
    const socketPath = adminSocketPath(database.dataDir)
    if (Either.isLeft(socketPath)) return yield* Effect.logWarning(`no admin socket: ${socketPath.left.message}`)
    yield* serveSocket(socketPath.right).pipe(
      Effect.catchAll((error) => Effect.logWarning(`no admin socket: ${error.message}`))
    )
  })
)
