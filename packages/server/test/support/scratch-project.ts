/** Running npm, tsc and node in a project outside the repository, as a team installing the packed packages would. */
import { execFile } from "node:child_process"
import { expect } from "@effect/vitest"

// npm hands a script it runs (`npm test`) its settings as npm_* variables; the scratch project's npm must read
// its own directory and the user's settings instead, as a team's would.
export const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))

/**
 * `npm install`'s flags in a scratch project. `--prefer-offline` takes the registry's answers from the npm cache the
 * repository's own `npm ci` just filled, asking the registry only for what is not there: the same packages a team
 * gets, in half the time (15 s instead of 32 on an idle 2-core machine, minutes on a loaded one).
 */
export const INSTALL_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline"] as const

/** How a command ended and what it printed. */
export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `file` with `args` in `cwd`, with `cleanEnv` and `env`; never rejects. */
export const run = (file: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}) =>
  new Promise<Run>((done) =>
    execFile(
      file,
      [...args],
      { cwd, env: { ...cleanEnv, ...env }, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  )

/** Fails the test unless the command exited 0 (showing its output); answers its stdout. */
export const succeeded = (what: string, result: Run) => {
  expect(result.code, `${what}:\n${result.stdout}\n${result.stderr}`).toBe(0)
  return result.stdout
}

/**
 * The `tsconfig.json` of a scratch project: strict, and with `skipLibCheck: false` so the installed packages'
 * declarations are checked too, with everything they import from their dependencies.
 */
export const strictTsconfig = (include: ReadonlyArray<string>) => ({
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: false,
    types: ["node"],
    outDir: "out"
  },
  include
})
