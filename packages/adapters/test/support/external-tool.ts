/**
 * Programs some tests need that `npm ci` does not install (Debian's Chromium, Python with a package). On a
 * newcomer's machine a test whose program is missing is skipped, and one line on standard error says what to
 * install. `.ci/run` installs them and names them in `SVC_TEST_REQUIRE_EXTERNAL` (a comma list of the ids below,
 * or `1` for all), under which a missing program fails the test instead, so CI cannot pass by skipping.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"

// Probes run as child processes without blocking: a test worker that waits synchronously on one (loading the AT
// Protocol packages takes seconds, more on a loaded 2-core machine) cannot answer vitest's own calls meanwhile, which
// then time out ("[vitest-worker]: Timeout calling onTaskUpdate").
const run = promisify(execFile)

/** Set by `.ci/run`: the external programs whose absence fails their tests instead of skipping them. */
export const REQUIRE_EXTERNAL = "SVC_TEST_REQUIRE_EXTERNAL"

/** Whether a program is there, and if not, what to run to get it. `id` is its name in `SVC_TEST_REQUIRE_EXTERNAL`. */
export type ExternalTool =
  | { readonly id: string; readonly available: true; readonly path: string }
  | { readonly id: string; readonly available: false; readonly install: string }

const required = (id: string): boolean => {
  const names = (process.env[REQUIRE_EXTERNAL] ?? "").split(",").map((name) => name.trim())
  return names.includes("1") || names.includes("all") || names.includes(id)
}

const onPath = async (command: string): Promise<string | undefined> => {
  try {
    const found = (await run("sh", ["-c", 'command -v "$1"', "sh", command], { encoding: "utf8" })).stdout.trim()
    return found.length > 0 ? found : undefined
  } catch {
    return undefined
  }
}

/** Whether `file` with `args` runs and exits 0 within `timeout` ms. */
const succeeds = (
  file: string,
  args: ReadonlyArray<string>,
  options: { readonly timeout: number; readonly cwd?: string }
) =>
  run(file, [...args], { timeout: options.timeout, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) }).then(
    () => true,
    () => false
  )

/**
 * Looks `command` up on the `PATH` (or runs `probe`, which answers the program's path when it is usable).
 * `install` is the instruction shown when it is missing.
 */
export const findExternalTool = async (options: {
  readonly id: string
  readonly command: string
  readonly install: string
  readonly probe?: () => Promise<string | undefined>
}): Promise<ExternalTool> => {
  const path = await (options.probe === undefined ? onPath(options.command) : options.probe())
  return path === undefined
    ? { id: options.id, available: false, install: options.install }
    : { id: options.id, available: true, path }
}

/**
 * Whether the tests that need `tool` should be skipped: true (after one line on standard error naming what to
 * install) when it is missing on a machine that does not require it; false when it is there. When it is missing
 * and `SVC_TEST_REQUIRE_EXTERNAL` names it, throws, so the test file fails with the same instruction.
 */
export const skipWithout = (what: string, tool: ExternalTool): boolean => {
  if (tool.available) return false
  const line = `${what} needs a program npm ci does not install: ${tool.install}`
  if (required(tool.id)) throw new Error(`${line} (${REQUIRE_EXTERNAL} names ${tool.id}: a skip is a failure)`)
  process.stderr.write(`skipped: ${line}\n`)
  return true
}

/** Debian's Chromium, which the browser tests drive through playwright-core (never a downloaded browser). */
export const chromiumTool = (): Promise<ExternalTool> =>
  findExternalTool({
    id: "chromium",
    command: "chromium",
    install: "apt-get install -y chromium (Debian's package), as .ci/run does"
  })

/** The pinned release of the official Python MCP SDK the interop test drives (.ci/run installs the same). */
export const PYTHON_MCP_PIN = "mcp~=2.3.0"

/**
 * A Python that can import the official MCP SDK: `SVC_TEST_PYTHON` (the virtual environment `.ci/run` makes) or
 * `python3` on the PATH.
 */
export const pythonMcpTool = (): Promise<ExternalTool> =>
  findExternalTool({
    id: "python-mcp",
    command: "python3",
    install: `python3 -m venv .venv-interop && .venv-interop/bin/pip install '${PYTHON_MCP_PIN}', then SVC_TEST_PYTHON=.venv-interop/bin/python`,
    probe: async () => {
      const python = process.env.SVC_TEST_PYTHON ?? (await onPath("python3"))
      if (python === undefined) return undefined
      return (await succeeds(python, ["-c", "import mcp.client.streamable_http"], { timeout: 30_000 }))
        ? python
        : undefined
    }
  })

/** Debian's HAProxy, in front of several `svc serve` in the deployment test (deploy/haproxy.cfg). */
export const haproxyTool = (): Promise<ExternalTool> =>
  findExternalTool({
    id: "haproxy",
    command: "haproxy",
    install: "apt-get install -y haproxy (Debian's package), as .ci/run does"
  })

/** A Docker daemon that answers (`docker info`), for building and running the image (the repository's Dockerfile). */
export const dockerTool = (): Promise<ExternalTool> =>
  findExternalTool({
    id: "docker",
    command: "docker",
    install: "a running Docker daemon that `docker info` reaches, able to pull node:20-bookworm-slim",
    probe: async () =>
      (await succeeds("docker", ["info", "--format", "{{.ServerVersion}}"], { timeout: 15_000 })) ? "docker" : undefined
  })

/** Where the multi-instance tests that run outside the storage passes find PostgreSQL. */
export const testPostgresUrl = (): string =>
  process.env.SVC_TEST_POSTGRES_URL?.trim() ||
  process.env.TEST_DATABASE_URL?.trim() ||
  "postgres://postgres@127.0.0.1:5432/test"

/**
 * A PostgreSQL that answers at {@link testPostgresUrl}, for the tests that need several instances on one database
 * whatever the pass's engine. Probed by connecting (from a child process: the probe is synchronous).
 */
export const postgresTool = (): Promise<ExternalTool> =>
  findExternalTool({
    id: "postgresql",
    command: "postgres",
    install: "a PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth, database test), or SVC_TEST_POSTGRES_URL",
    probe: async () => {
      const url = testPostgresUrl()
      const connects = await succeeds(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          "import pg from 'pg'; const c = new pg.Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 }); await c.connect(); await c.end()",
          url
        ],
        { timeout: 15_000, cwd: import.meta.dirname }
      )
      return connects ? url : undefined
    }
  })

/**
 * A local AT Protocol network: `@atproto/pds` and `@did-plc/server` (root devDependencies) with the native
 * `better-sqlite3` that `npm ci` installs for this Node (built from source with python3, make and g++ where its prebuilt
 * download is out of reach, as on our machines). Probed by loading them in a child process, as atproto-pds.mjs will.
 */
export const atprotoTool = (): Promise<ExternalTool> =>
  findExternalTool({
    id: "atproto",
    command: "node",
    install:
      "a better-sqlite3 built for this Node under @atproto/pds (npm ci builds it where python3, make and g++ are on the PATH; then npm rebuild better-sqlite3)",
    probe: async () => {
      const loads = await succeeds(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          "import Database from 'better-sqlite3'; new Database(':memory:').close(); await import('@atproto/pds'); await import('@did-plc/server')"
        ],
        { timeout: 60_000, cwd: import.meta.dirname }
      )
      return loads ? process.execPath : undefined
    }
  })
