/**
 * A real local AT Protocol network for the Bluesky publisher's tests: a PDS and a PLC directory in a child process
 * (atproto-pds.mjs), on ephemeral ports, with SQLite and blobs in a temporary directory removed when it stops.
 * Accounts are made the way a person makes one (`createAccount`, then an app password), with no invite and no admin.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { AtpAgent } from "@atproto/api"
import { Context, Effect, Layer, type Scope } from "effect"

/** An account on the local network, with the app password a person would give svc. */
export interface AtprotoAccount {
  readonly handle: string
  readonly did: string
  /** The account's own password (never given to svc). */
  readonly password: string
  readonly appPassword: string
}

/** The running network. */
export interface AtprotoNetworkShape {
  /** The PDS's address, e.g. `http://localhost:41234` (accounts' service URL). */
  readonly pdsUrl: string
  /** Makes an account `<name>.test` and an app password for it. */
  readonly createAccount: (name: string) => Effect.Effect<AtprotoAccount>
  /** An agent logged in to the account with its own password, to read back what svc wrote. */
  readonly agentFor: (account: AtprotoAccount) => Effect.Effect<AtpAgent>
  /** Stops the PDS now (as a crash would); the directory is removed when the scope closes. */
  readonly stop: Effect.Effect<void>
}

export class AtprotoNetwork extends Context.Tag("test/AtprotoNetwork")<AtprotoNetwork, AtprotoNetworkShape>() {}

const CHILD = path.join(import.meta.dirname, "atproto-pds.mjs")
/** Loading the PDS's modules is most of a start (about 2 s here); a cold CI disk may take several times that. */
const START_TIMEOUT_MS = 60_000

/** Starts the child and waits for its one line of addresses; its stderr is kept for the error when it dies first. */
const startChild = (directory: string) =>
  Effect.async<{ child: ChildProcess; pdsUrl: string }, Error>((resume) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_ENABLED: "false" }
    const child = spawn(process.execPath, [CHILD, directory], {
      cwd: import.meta.dirname,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      resume(Effect.fail(new Error(`the PDS did not start within ${START_TIMEOUT_MS} ms: ${stderr}`)))
    }, START_TIMEOUT_MS)
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8")
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8")
      const end = stdout.indexOf("\n")
      if (end < 0) return
      clearTimeout(timer)
      const { pdsUrl } = JSON.parse(stdout.slice(0, end)) as { pdsUrl: string }
      resume(Effect.succeed({ child, pdsUrl }))
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      resume(Effect.fail(new Error(`the PDS exited (${code ?? signal}) before it answered: ${stderr}`)))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      child.kill("SIGKILL")
    })
  })

/** Stops the child: SIGTERM lets the PDS close its databases, SIGKILL after 10 s. */
const stopChild = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resume(Effect.void)
    })
    child.kill("SIGTERM")
  })

/** A network for the current scope: started now, stopped and its directory removed when the scope closes. */
export const startAtprotoNetwork: Effect.Effect<AtprotoNetworkShape, Error, Scope.Scope> = Effect.gen(function* () {
  const directory = yield* Effect.acquireRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "svc-atproto-"))),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )
  const { child, pdsUrl } = yield* Effect.acquireRelease(startChild(directory), ({ child }) => stopChild(child))

  const createAccount = (name: string) =>
    Effect.promise(async (): Promise<AtprotoAccount> => {
      const agent = new AtpAgent({ service: pdsUrl })
      const handle = `${name}.test`
      const password = `pw-${name}-${Math.random().toString(36).slice(2)}`
      const created = await agent.createAccount({ handle, email: `${name}@example.com`, password })
      const { data } = await agent.com.atproto.server.createAppPassword({ name: "svc" })
      return { handle, did: created.data.did, password, appPassword: data.password }
    })

  // One login per account for the whole network: the PDS allows 30 logins in five minutes to one account.
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

  return { pdsUrl, createAccount, agentFor, stop: stopChild(child) }
})

/** One network per test file (`layer(AtprotoNetworkLive)`). */
export const AtprotoNetworkLive = Layer.scoped(AtprotoNetwork, startAtprotoNetwork)
