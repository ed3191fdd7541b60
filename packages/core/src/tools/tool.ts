import { Effect, Either, Schema } from "effect"
import type { Workspace } from "../accounts/workspace.js"
import type { Principal } from "../auth/schema.js"
import type { DomainError } from "../shared/errors.js"
import type { DomainFailure } from "../shared/failures.js"
import { unstorableInput } from "../shared/storable-text.js"
import { makeAnswerEncoder } from "./answer-encoder.js"
import type { ToolGroup } from "./groups.js"
import { makeInputDecoder } from "./input-decoder.js"
import { toInvalidInput } from "./problems.js"

/** What a tool handler knows about the call beyond its input. */
export interface ToolContext {
  readonly principal: Principal
  /**
   * The workspace the call acts on: `workspaceId` from the input, else the caller's default.
   * Lazy, so account-level tools (listing workspaces) work for a caller with no default workspace.
   */
  readonly workspace: Effect.Effect<Workspace, DomainError>
  /**
   * Resolves another workspace by the same rule (`undefined`: the caller's default), for tools that name what
   * they act on another way (a store by its handle).
   */
  readonly reach: ResolveWorkspace
}

/** Resolves the workspace of a call; supplied by the tool server. */
export type ResolveWorkspace = (workspaceId: string | undefined) => Effect.Effect<Workspace, DomainError>

/** Honest hints for agents (MCP tool annotations); `readOnlyHint` is `!write`. */
export interface ToolAnnotations {
  /** True only for deletes, trashes and replacements. */
  readonly destructiveHint: boolean
  /** True when repeating the call with the same input changes nothing more. */
  readonly idempotentHint: boolean
  /** True when the tool reaches an outside system through a port. */
  readonly openWorldHint: boolean
}

/** A deprecated name of the service description that a tool still answers to. */
export interface ToolAlias {
  readonly name: string
  readonly title: string
}

/** Everything a tool is, as its area declares it next to the service it calls. */
export interface ToolSpec<In extends Schema.Struct.Fields, Out extends Schema.Struct.Fields> {
  readonly name: string
  readonly title: string
  readonly group: ToolGroup
  /** Whether the tool changes data: it then needs edit access, and is not read-only. */
  readonly write: boolean
  /** Retired names that call this tool (each one a deprecated alias of it in the service description). */
  readonly aliases?: ReadonlyArray<ToolAlias>
  readonly annotations: ToolAnnotations
  readonly description: string
  readonly input: In
  readonly output: Out
  readonly handler: (
    input: Schema.Struct.Type<In>,
    context: ToolContext
  ) => Effect.Effect<Schema.Struct.Type<Out>, DomainFailure>
}

/** A tool with its types erased, ready for the registry. */
export interface Tool {
  readonly name: string
  readonly title: string
  readonly group: ToolGroup
  readonly write: boolean
  readonly aliases: ReadonlyArray<ToolAlias>
  readonly annotations: ToolAnnotations
  readonly description: string
  /** The whole input, `workspaceId` included; its JSON Schema is the tool's `inputSchema`. */
  readonly inputSchema: Schema.Schema.AnyNoContext
  /** The success answer, `ok: true` included; its JSON Schema is the tool's `outputSchema`. */
  readonly outputSchema: Schema.Schema.AnyNoContext
  /** Decodes `args`, runs the handler in the resolved workspace and encodes the answer. */
  readonly execute: (
    args: unknown,
    principal: Principal,
    resolve: ResolveWorkspace
  ) => Effect.Effect<Readonly<Record<string, unknown>>, DomainFailure>
}

/** The `workspaceId` field every tool takes. */
export const WorkspaceIdField = Schema.optional(
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
    description: "Workspace (ws_…); default: yours."
  })
)

/** Declares a tool (checked against the service description when the registry is built): its input is decoded strictly (unknown fields refused), its answer encoded with `ok: true`. */
export const defineTool = <In extends Schema.Struct.Fields, Out extends Schema.Struct.Fields>(
  spec: ToolSpec<In, Out>
): Tool => {
  // Tool schemas are plain data schemas that need no services; the casts state that once, here.
  const input = Schema.Struct({ workspaceId: WorkspaceIdField, ...spec.input }) as unknown as Schema.Schema<
    { readonly workspaceId?: string } & Schema.Struct.Type<In>,
    unknown
  >
  const output = Schema.Struct(spec.output) as unknown as Schema.Schema<
    Schema.Struct.Type<Out>,
    Record<string, unknown>
  >
  // Decoded and encoded synchronously (`Either`), not as effects: tool schemas are plain data with no services
  // or async steps, and the effect form cost a fiber's worth of steps per call on the hot path.
  const decode = makeInputDecoder(input)
  const encode = makeAnswerEncoder(output)
  const ok = Schema.Struct({
    ok: Schema.Literal(true).annotations({ description: "Always true on success." }),
    ...spec.output
  }) as unknown as Schema.Schema.AnyNoContext
  return {
    name: spec.name,
    title: spec.title,
    group: spec.group,
    write: spec.write,
    aliases: spec.aliases ?? [],
    annotations: spec.annotations,
    description: spec.description,
    inputSchema: input,
    outputSchema: ok,
    execute: (args, principal, resolve) =>
      Effect.suspend(() => {
        const refused = unstorableInput(args)
        if (refused !== undefined) return Effect.fail(refused)
        const decoded = decode(args ?? {})
        if (Either.isLeft(decoded)) return Effect.fail(toInvalidInput(decoded.left))
        const { workspaceId, ...fields } = decoded.right
        return Effect.flatMap(
          spec.handler(fields as Schema.Struct.Type<In>, {
            principal,
            workspace: resolve(workspaceId),
            reach: resolve
          }),
          (result) => {
            const encoded = encode(result)
            // Our own answer failing its own schema is a bug, not the caller's problem.
            return Either.isRight(encoded) ? Effect.succeed({ ok: true, ...encoded.right }) : Effect.die(encoded.left)
          }
        )
      })
  }
}
