import { type Access, ApiKeys, describeAccess, Level, Part } from "@svc/core/auth"
import { parseDefaultToolsets } from "@svc/core/tools"
import { Effect, Either, Schema } from "effect"
import { accountByEmail } from "./accounts.js"
import { type Output, report, UsageError } from "./output.js"

const parsePart = (text: string) =>
  Effect.gen(function* () {
    const [part, level] = text.split("=")
    const decodedPart = yield* Schema.decodeUnknown(Part)(part).pipe(
      Effect.mapError(
        () => new UsageError({ message: `--part ${text}: the part must be one of ${Part.literals.join(", ")}` })
      )
    )
    const decodedLevel = yield* Schema.decodeUnknown(Level)(level).pipe(
      Effect.mapError(
        () => new UsageError({ message: `--part ${text}: the level must be one of ${Level.literals.join(", ")}` })
      )
    )
    return [decodedPart, decodedLevel] as const
  })

/** Reads `--access full|custom` and a list of `--part <part>=<level>` into an access grant. */
export const parseAccess = (access: "full" | "custom" | undefined, parts: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (parts.length === 0) {
      if (access === "custom")
        return yield* new UsageError({ message: "--access custom needs at least one --part <part>=<level>" })
      return { kind: "full" } satisfies Access
    }
    if (access === "full") return yield* new UsageError({ message: "--access full cannot be combined with --part" })
    const entries = yield* Effect.forEach(parts, parsePart)
    return { kind: "custom", parts: Object.fromEntries(entries) } satisfies Access as Access
  })

/** Reads `--toolset` values (each a name or a comma list) into a key's default toolsets; `null`: every group. */
export const parseToolsets = (values: ReadonlyArray<string>) => {
  const parsed = parseDefaultToolsets(values)
  return Either.isLeft(parsed)
    ? Effect.fail(new UsageError({ message: `--toolset: ${parsed.left.message}` }))
    : Effect.succeed(parsed.right)
}

const describeToolsets = (toolsets: ReadonlyArray<string> | null) => (toolsets === null ? "all" : toolsets.join(","))

export const keyView = (key: {
  readonly id: string
  readonly name: string
  readonly prefix: string
  readonly access: Access
  readonly toolsets: ReadonlyArray<string> | null
  readonly workspaceId: string
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  readonly expiresAt: Date | null
  readonly revokedAt: Date | null
}) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  access: key.access,
  toolsets: key.toolsets,
  workspaceId: key.workspaceId,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null
})

/** `svc keys create --email [--name] [--access full | --part p=l ...] [--toolset t ...] [--store handle] [--expires-in-days N]` */
export const createKey = (
  input: {
    readonly email: string
    readonly name: string | undefined
    readonly access: "full" | "custom" | undefined
    readonly parts: ReadonlyArray<string>
    readonly toolsets: ReadonlyArray<string>
    readonly store: string | undefined
    readonly expiresInDays: number | undefined
  },
  output: Output
) =>
  Effect.gen(function* () {
    const account = yield* accountByEmail(input.email)
    const access = yield* parseAccess(input.access, input.parts)
    const toolsets = yield* parseToolsets(input.toolsets)
    const { key, token } = yield* (yield* ApiKeys).create(account.id, {
      name: input.name,
      access,
      toolsets,
      storeHandle: input.store,
      expiresInDays: input.expiresInDays
    })
    yield* report(output, { key: keyView(key), token }, [
      `Created API key ${key.id} (${key.name}) for ${account.email}, access: ${describeAccess(key.access)}, toolsets: ${describeToolsets(key.toolsets)}.`,
      "The token is shown once; store it now:",
      "",
      `  ${token}`,
      ""
    ])
  })

/** `svc keys list --email` */
export const listKeys = (input: { readonly email: string }, output: Output) =>
  Effect.gen(function* () {
    const account = yield* accountByEmail(input.email)
    const keys = yield* (yield* ApiKeys).list(account.id)
    yield* report(
      output,
      { keys: keys.map(keyView) },
      keys.length === 0
        ? [`${account.email} has no API keys.`]
        : keys.map(
            (k) =>
              `${k.id}  ${k.prefix}…  ${k.name}  access: ${describeAccess(k.access)}  toolsets: ${describeToolsets(k.toolsets)}  ${
                k.revokedAt ? "revoked" : k.expiresAt ? `expires ${k.expiresAt.toISOString()}` : "no expiry"
              }  last used: ${k.lastUsedAt?.toISOString() ?? "never"}`
          )
    )
  })

/** `svc keys revoke <id>` */
export const revokeKey = (id: string, output: Output) =>
  Effect.gen(function* () {
    yield* (yield* ApiKeys).revoke(id)
    yield* report(output, { revoked: id }, [`Revoked ${id}; running servers stop accepting it within 5 seconds.`])
  })
