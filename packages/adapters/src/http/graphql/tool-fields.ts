import type { Tool, ToolAnswer } from "@svc/core/tools"
import type { GraphQLFieldConfig, GraphQLFieldConfigArgumentMap, GraphQLOutputType } from "graphql"
import { connectionOf, type Connections, type PageArgs, pageArgs } from "./connections.js"
import type { GraphqlContext } from "./context.js"
import { failureError } from "./errors.js"
import type { GraphqlKit } from "./parts.js"
import { isToolFailure } from "./results.js"
import { elementSchema, fieldSchema } from "./schema-fields.js"

/** A tool's answer, or the GraphQL error of its failure (query fields fail as errors; mutations answer them). */
export const answerOrThrow = (answer: ToolAnswer): Readonly<Record<string, unknown>> => {
  if (isToolFailure(answer)) throw failureError(answer as Parameters<typeof failureError>[0])
  return answer
}

/** The arguments a tool's input gives a field, less those the field fills itself. */
export const toolArgs = (
  { types }: GraphqlKit,
  tool: Tool,
  name: string,
  without: ReadonlyArray<string>
): GraphQLFieldConfigArgumentMap => {
  const fields = types.inputFields(tool.inputSchema, name)
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !without.includes(key)))
}

/** Where a field under a workspace finds its workspace id. */
export interface InWorkspace {
  readonly workspaceId: string
}

/**
 * A connection field over a paged list tool (`limit`/`cursor` in, `<list>` and `nextCursor` out): `first`/`after`
 * become the tool's `limit`/`cursor`, the tool's other input fields become arguments, and its rows the nodes, typed
 * from the tool's answer schema.
 */
export const toolConnectionField = (
  kit: GraphqlKit,
  connections: Connections,
  tool: Tool,
  options: {
    readonly list: string
    readonly node: string
    readonly description?: string
    /** The cursor of one row; by default its keyset cursor (`keysetCursor`), which ranked lists must not use. */
    readonly cursorOf?: (node: unknown) => string | null
    /** The rows' type when another field answers the same rows (a single-record read); by default derived here. */
    readonly nodeType?: GraphQLOutputType
  }
): GraphQLFieldConfig<InWorkspace, GraphqlContext, PageArgs & Record<string, unknown>> => {
  const node: GraphQLOutputType =
    options.nodeType ?? kit.types.output(elementSchema(fieldSchema(tool.outputSchema.ast, options.list)), options.node)
  return {
    type: connections.of(node),
    description: options.description ?? tool.description,
    args: { ...toolArgs(kit, tool, `${options.node}Filter`, ["workspaceId", "limit", "cursor"]), ...pageArgs },
    resolve: async (source, { first, after, ...filters }, context) => {
      const answer = answerOrThrow(
        await context.callTool(tool.name, {
          ...withoutNulls(filters),
          workspaceId: source.workspaceId,
          ...(first == null ? {} : { limit: first }),
          ...(after == null ? {} : { cursor: after })
        })
      )
      return connectionOf(answer[options.list] as ReadonlyArray<unknown>, answer.nextCursor as string | undefined, {
        after,
        ...(options.cursorOf === undefined ? {} : { cursorOf: options.cursorOf })
      })
    }
  }
}

/** Arguments without those given as `null`: the tools take an absent field, not `null`, for "not given". */
export const withoutNulls = (args: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined))
