import { listRecord, ResearchLists } from "@svc/core/research"
import { groupRefusal, type Tool, type ToolRegistryShape } from "@svc/core/tools"
import { Effect, Option, Schema } from "effect"
import {
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLString
} from "graphql"
import type { Connections } from "./connections.js"
import type { GraphqlContext } from "./context.js"
import { failureError } from "./errors.js"
import type { GraphqlKit } from "./parts.js"
import { elementSchema, fieldSchema } from "./schema-fields.js"
import { answerOrThrow, type InWorkspace, toolArgs, toolConnectionField, withoutNulls } from "./tool-fields.js"

type WorkspaceFields = GraphQLFieldConfigMap<InWorkspace, GraphqlContext>

/** A field answering one field of a read tool's answer, with the tool's input (less `workspaceId`) as arguments. */
const toolRecordField = (
  kit: GraphqlKit,
  tool: Tool,
  answerField: string,
  typeName: string,
  description: string
): GraphQLFieldConfig<InWorkspace, GraphqlContext, Record<string, unknown>> => ({
  type: kit.types.output(fieldSchema(tool.outputSchema.ast, answerField), typeName),
  description,
  args: toolArgs(kit, tool, `${typeName}Lookup`, ["workspaceId"]),
  resolve: async (source, args, context) =>
    answerOrThrow(await context.callTool(tool.name, { ...withoutNulls(args), workspaceId: source.workspaceId }))[
      answerField
    ]
})

/**
 * Research under `workspace`: `creator` (svc_resolve_creator) and `socialPost` (svc_read_social_post), charged like
 * the tools; `researchList` (a creator or brand list with its members, free); and `analyticsPosts`, a connection over
 * svc_list_analytics_posts. Each is left out when its tool is not served; the lists' changes are the tool mutations
 * (`saveCreatorsToList`, `saveBrandsToList`, `removeBrandsFromList`).
 */
export const researchFields = (kit: GraphqlKit, connections: Connections, registry: ToolRegistryShape) =>
  Effect.gen(function* () {
    const lists = yield* Effect.serviceOption(ResearchLists)
    const tool = (name: string) => registry.find(name)?.tool
    const resolve = tool("svc_resolve_creator")
    const readPost = tool("svc_read_social_post")
    const saveCreators = tool("svc_save_creators_to_list")
    const analyzeList = tool("svc_analyze_list")
    const analyticsPosts = tool("svc_list_analytics_posts")
    const fields: WorkspaceFields = {}

    if (resolve) {
      fields.creator = toolRecordField(
        kit,
        resolve,
        "creator",
        "ResearchCreator",
        "The creator a handle, profile URL or name names (svc_resolve_creator: 0.1 credits)."
      ) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
    }
    if (readPost) {
      fields.socialPost = toolRecordField(
        kit,
        readPost,
        "post",
        "ResearchPost",
        "One post, video or article by URL or id (svc_read_social_post: 0.1 credits)."
      ) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
    }
    if (saveCreators && analyzeList && Option.isSome(lists)) {
      fields.researchList = listField(kit, saveCreators, analyzeList, lists.value)
    }
    if (analyticsPosts) {
      fields.analyticsPosts = toolConnectionField(kit, connections, analyticsPosts, {
        list: "posts",
        node: "AnalyticsPost",
        // Sorted by a metric, a row's place is no keyset of its own: only the page's endCursor continues the list.
        cursorOf: () => null,
        description:
          "The workspace's published posts with their latest metrics per platform, sorted and narrowed like svc_list_analytics_posts."
      }) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
    }
    return fields
  })

/**
 * `researchList(id | name, kind)`: one list with its members, read through the service the list tools call after
 * the tool server's rules for reading research (those of svc_analyze_list), encoded by the list tools' own record.
 */
const listField = (
  kit: GraphqlKit,
  saveCreators: Tool,
  analyzeList: Tool,
  lists: ResearchLists
): GraphQLFieldConfig<InWorkspace, GraphqlContext> => {
  const output = saveCreators.outputSchema.ast
  const listFields = kit.types.outputFields(fieldSchema(output, "list"), "ResearchListFields")
  const member: GraphQLOutputType = kit.types.output(
    elementSchema(fieldSchema(output, "members")),
    "ResearchListMember"
  )
  const type = new GraphQLObjectType({
    name: kit.types.reserve("ResearchList"),
    description: "A creator or brand list of the workspace, with its members in the order added.",
    fields: { ...listFields, members: { type: new GraphQLNonNull(new GraphQLList(member)) } }
  })
  const encode = Schema.encodeSync(saveCreators.outputSchema)
  return {
    type: new GraphQLNonNull(type),
    description: "A research list by id (crl_…, brl_…), or by name with its kind (not-found for another workspace's).",
    args: {
      id: { type: GraphQLString, description: "List id." },
      name: { type: GraphQLString, description: "List name (case-insensitive); needs kind." },
      kind: { type: GraphQLString, description: "creators or brands, with name; default creators." }
    },
    resolve: async (source, args: { id?: string | null; name?: string | null; kind?: string | null }, context) => {
      const refusal = groupRefusal(await context.toolsCaller(), analyzeList)
      if (refusal !== undefined) throw failureError({ status: "forbidden", message: refusal.message })
      const kind = args.kind === "brands" ? "brands" : "creators"
      if (args.kind != null && args.kind !== "creators" && args.kind !== "brands") {
        throw failureError({ status: "invalid", message: 'kind is "creators" or "brands"' })
      }
      const choice = args.id != null ? { listId: args.id } : args.name != null ? { listName: args.name } : undefined
      if (choice === undefined) throw failureError({ status: "invalid", message: "give id, or name (with kind)" })
      // A list is read by id whatever its kind; by name, within the kind asked.
      const found = await context.run(
        "listId" in choice
          ? Effect.orElse(lists.read(source.workspaceId, "creators", choice), () =>
              lists.read(source.workspaceId, "brands", choice)
            )
          : lists.read(source.workspaceId, kind, choice)
      )
      const record = encode({ ok: true, ...listRecord(found), added: 0 }) as {
        readonly list: Record<string, unknown>
        readonly members: ReadonlyArray<unknown>
      }
      return { ...record.list, members: record.members }
    }
  }
}
