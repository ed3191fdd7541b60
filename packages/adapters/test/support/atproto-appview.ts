/**
 * A real local AT Protocol network WITH the Bluesky AppView, for the tests of what reads app.bsky.* (research,
 * analytics, auto-DM): a PLC directory, a PDS and the AppView with its dataplane, in a child process
 * (atproto-appview.mjs, @atproto/dev-env's parts, on this Node), on ephemeral ports. The PDS keeps SQLite and blobs in
 * a temporary directory removed when the network stops; the AppView keeps its index in PostgreSQL, in a schema of its
 * own dropped when it stops. The test seeds it through the PDS as people would (accounts, posts, likes, follows),
 * calls `settle` to wait until the AppView has indexed all of it, and reads back from `appViewUrl`.
 *
 * Needs `@atproto/dev-env` (a root optional dependency) and a PostgreSQL: {@link appViewPostgresUrl}. Without them a
 * test skips with one line saying what to install ({@link atprotoAppViewTool}), unless `SVC_TEST_REQUIRE_EXTERNAL`
 * names `atproto-appview`, as .ci/run does.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { promisify } from "node:util"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { AtpAgent } from "@atproto/api"
import { Context, Effect, Layer, type Scope } from "effect"
import type { AtprotoAccount } from "./atproto-network.js"
import { type ExternalTool, testPostgresUrl } from "./external-tool.js"

export type { AtprotoAccount } from "./atproto-network.js"

/** The running network. */
export interface AtprotoAppViewShape {
  /** The AppView's address, e.g. `http://localhost:41234`: where app.bsky.* is read without logging in. */
  readonly appViewUrl: string
  /** The PDS's address (accounts' service URL); it proxies app.bsky.* calls of a logged-in agent to the AppView. */
  readonly pdsUrl: string
  /** The PLC directory's address. */
  readonly plcUrl: string
  /** Makes an account `<name>.test` (lower case letters, digits and `-`) and an app password for it. */
  readonly createAccount: (name: string) => Effect.Effect<AtprotoAccount>
  /** An agent on the PDS logged in to the account with its own password (one login per account), for seeding. */
  readonly agentFor: (account: AtprotoAccount) => Effect.Effect<AtpAgent>
  /** A new agent on the AppView, logged in to nothing: what a public client such as the research source sees. */
  readonly publicAgent: () => AtpAgent
  /** Waits until the AppView has indexed everything written to the PDS so far. */
  readonly settle: Effect.Effect<void>
}

export class AtprotoAppView extends Context.Tag("test/AtprotoAppView")<AtprotoAppView, AtprotoAppViewShape>() {}

const run = promisify(execFile)

const CHILD = path.join(import.meta.dirname, "atproto-appview.mjs")
/** About 3.5 s here (loading the modules, then the AppView's 228 migrations); a cold CI disk may take several times that. */
const START_TIMEOUT_MS = 90_000
/** The id in `SVC_TEST_REQUIRE_EXTERNAL` under which a missing AppView fails instead of skipping. */
export const APPVIEW_TOOL_ID = "atproto-appview"

/**
 * The PostgreSQL the AppView indexes into: `SVC_TEST_POSTGRES_URL`, else `TEST_DATABASE_URL`, else
 * `postgres://postgres@127.0.0.1:5432/test`. Only a schema of its own is written there.
 */
export const appViewPostgresUrl = (): string => testPostgresUrl()

/** What to install when the probe's step `code` failed (the child's exit code). */
const MISSING: Readonly<Record<number, string>> = {
  2: "a PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth, database test), or SVC_TEST_POSTGRES_URL naming one",
  3: "@atproto/dev-env (a root optional dependency) with a better-sqlite3 built for this Node: npm ci (python3, make and g++ on the PATH), then npm rebuild better-sqlite3"
}

/**
 * The AppView's prerequisites: a PostgreSQL answers at {@link appViewPostgresUrl}, and `@atproto/dev-env` loads (with
 * the native better-sqlite3 of @atproto/pds). Probed in a child process, as the network will run; when one is missing,
 * `install` names that one.
 */
export const atprotoAppViewTool = async (): Promise<ExternalTool> => {
  const probe = [
    "const { default: pg } = await import('pg')",
    "const c = new pg.Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 })",
    "await c.connect().then(() => c.end()).catch(() => process.exit(2))",
    "try { const { default: Database } = await import('better-sqlite3'); new Database(':memory:').close(); await import('@atproto/dev-env') } catch { process.exit(3) }"
  ].join("; ")
  try {
    await run(process.execPath, ["--input-type=module", "-e", probe, appViewPostgresUrl()], {
      timeout: 60_000,
      cwd: import.meta.dirname
    })
    return { id: APPVIEW_TOOL_ID, available: true, path: process.execPath }
  } catch (error) {
    // execFile's error carries the child's exit status as `code`.
    const status = (error as { code?: unknown }).code
    const install = (typeof status === "number" ? MISSING[status] : undefined) ?? `${MISSING[2]}; and ${MISSING[3]}`
    return { id: APPVIEW_TOOL_ID, available: false, install }
  }
}

interface Addresses {
  readonly appViewUrl: string
  readonly pdsUrl: string
  readonly plcUrl: string
  readonly controlUrl: string
}

/** Starts the child and waits for its one line of addresses; its stderr is kept for the error when it dies first. */
const startChild = (directory: string) =>
  Effect.async<{ child: ChildProcess; addresses: Addresses }, Error>((resume) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_ENABLED: "false", DB_POSTGRES_URL: appViewPostgresUrl() }
    // Standard input stays open: the child stops when it closes, so a test process that dies takes the network along.
    const child = spawn(process.execPath, [CHILD, directory], {
      cwd: import.meta.dirname,
      env,
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    let answered = false
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resume(Effect.fail(new Error(`the AppView network did not start within ${START_TIMEOUT_MS} ms: ${stderr}`)))
    }, START_TIMEOUT_MS)
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8")
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      if (answered) return
      stdout += chunk.toString("utf8")
      const end = stdout.indexOf("\n")
      if (end < 0) return
      answered = true
      clearTimeout(timer)
      resume(Effect.succeed({ child, addresses: JSON.parse(stdout.slice(0, end)) as Addresses }))
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      if (!answered) resume(Effect.fail(new Error(`the AppView network exited (${code ?? signal}) first: ${stderr}`)))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      child.kill("SIGKILL")
    })
  })

/** Stops the child: SIGTERM lets it close its servers and drop its schema, SIGKILL after 15 s. */
const stopChild = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resume(Effect.void)
    })
    child.kill("SIGTERM")
  })

/** A network for the current scope: started now, stopped, its schema dropped and its directory removed at the end. */
export const startAtprotoAppView: Effect.Effect<AtprotoAppViewShape, Error, Scope.Scope> = Effect.gen(function* () {
  const directory = yield* Effect.acquireRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "svc-appview-"))),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )
  const { addresses } = yield* Effect.acquireRelease(startChild(directory), ({ child }) => stopChild(child))
  const { appViewUrl, pdsUrl, plcUrl, controlUrl } = addresses

  const createAccount = (name: string) =>
    Effect.promise(async (): Promise<AtprotoAccount> => {
      const agent = new AtpAgent({ service: pdsUrl })
      const handle = `${name}.test`
      const password = `pw-${name}-${Math.random().toString(36).slice(2)}`
      const created = await agent.createAccount({ handle, email: `${name}@example.com`, password })
      const { data } = await agent.com.atproto.server.createAppPassword({ name: "svc" })
      return { handle, did: created.data.did, password, appPassword: data.password }
    })

  const agents = new Map<string, Promise<AtpAgent>>()
  const agentFor = (account: AtprotoAccount) =>
    Effect.promise(() => {
      const known = agents.get(account.did)
      if (known !== undefined) return known
      const agent = new AtpAgent({ service: pdsUrl })
      const loggedIn = agent.login({ identifier: account.handle, password: account.password }).then(() => agent)
      agents.set(account.did, loggedIn)
      return loggedIn
    })

  const settle = Effect.promise(async () => {
    const response = await fetch(`${controlUrl}/settle`, { method: "POST" })
    if (response.status !== 204) throw new Error(`the AppView did not settle: ${await response.text()}`)
  })

  return {
    appViewUrl,
    pdsUrl,
    plcUrl,
    createAccount,
    agentFor,
    publicAgent: () => new AtpAgent({ service: appViewUrl }),
    settle
  }
})

/** One network per test file (`layer(AtprotoAppViewLive)`). */
export const AtprotoAppViewLive = Layer.scoped(AtprotoAppView, startAtprotoAppView)
