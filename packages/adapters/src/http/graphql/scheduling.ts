import { postRecord, Scheduling } from "@svc/core/scheduling"
import { groupRefusal, type Tool, type ToolRegistryShape } from "@svc/core/tools"
import { Effect, Option, Schema, type SchemaAST as AST } from "effect"
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
import { answerOrThrow, type InWorkspace, toolConnectionField } from "./tool-fields.js"

type WorkspaceFields = GraphQLFieldConfigMap<InWorkspace, GraphqlContext>

/** The overview's fields the `schedule` field leaves to `socialAccounts` (and the answer's `ok`). */
const NOT_SCHEDULE = new Set(["ok", "accounts", "needsReconnect"])

/** A struct schema's field, on its type side (the tools' mutations derive from that side too, so types are shared). */
const fieldOf = (struct: AST.AST, key: string): AST.AST => {
  const found = struct._tag === "TypeLiteral" ? struct.propertySignatures.find((p) => p.name === key) : undefined
  if (found === undefined) throw new Error(`the schema has no field ${key}`)
  return found.type
}

/** An array schema's element, on its type side. */
const elementOf = (array: AST.AST): AST.AST => {
  const element = array._tag === "TupleType" ? array.rest[0]?.type : undefined
  if (element === undefined) throw new Error("expected an array schema")
  return element
}

/**
 * Scheduling under `workspace`: `posts` (a connection over svc_list_scheduled_posts, with its filters), `post(id)`,
 * `schedule` and `socialAccounts` (both from svc_list_schedules, read once per request and workspace). Each field
 * is left out when its tool is not served. Scheduling's changes are the tool mutations (`schedulePost`,
 * `updateScheduledPost`, `cancelScheduledPost`, `publishPostNow`, `updateSchedule`), through the tool server's
 * access, plan and scope checks like every other write tool.
 */
export const schedulingFields = (kit: GraphqlKit, connections: Connections, registry: ToolRegistryShape) =>
  Effect.gen(function* () {
    const { types } = kit
    const scheduling = yield* Effect.serviceOption(Scheduling)
    const tool = (name: string) => registry.find(name)?.tool
    const listPosts = tool("svc_list_scheduled_posts")
    const listSchedules = tool("svc_list_schedules")
    const fields: WorkspaceFields = {}

    if (listPosts) {
      // The post record of the list and post(id), and its deliveries, media and platforms, named for what they are
      // rather than for the first field that meets them. The mutations' payloads share the last three; their post
      // record is an annotated copy in core (one type per tool, the same fields).
      const post = elementOf(fieldOf(listPosts.outputSchema.ast, "posts"))
      types.rename(post, "ScheduledPost")
      types.rename(elementOf(fieldOf(post, "deliveries")), "PostDelivery")
      types.rename(elementOf(fieldOf(post, "media")), "PostMedia")
      types.rename(elementOf(fieldOf(post, "platforms")), "PublishPlatform")
      const postType = types.output(post, "ScheduledPost")
      fields.posts = toolConnectionField(kit, connections, listPosts, {
        list: "posts",
        node: "ScheduledPost",
        nodeType: postType,
        description:
          "The workspace's posts, newest first, with each platform's delivery; narrowed by status, platform and scheduled time (fromIso inclusive, toIso exclusive), like svc_list_scheduled_posts."
      }) as GraphQLFieldConfig<InWorkspace, GraphqlContext>
      if (Option.isSome(scheduling)) fields.post = postField(postType, listPosts, scheduling.value)
    }

    if (listSchedules) {
      const overview = listSchedules.outputSchema.ast
      const overviewOf = (context: GraphqlContext, workspaceId: string) =>
        context.memo(`svc_list_schedules:${workspaceId}`, async () =>
          answerOrThrow(await context.callTool(listSchedules.name, { workspaceId }))
        )
      const account = elementOf(fieldOf(overview, "accounts"))
      types.rename(account, "SocialAccount")
      types.rename(elementOf(fieldOf(overview, "slots")), "PostingSlot")
      const overviewFields = types.outputFields(overview, "Schedule")
      const schedule = new GraphQLObjectType({
        name: types.reserve("Schedule"),
        description:
          "The workspace's posting schedule (as svc_list_schedules answers it): time zone, weekly slots, the next free slots, where posts can go and the public feed's address.",
        fields: Object.fromEntries(Object.entries(overviewFields).filter(([key]) => !NOT_SCHEDULE.has(key)))
      })
      fields.schedule = {
        type: new GraphQLNonNull(schedule),
        description: "The posting schedule, its next free slots and the platforms this server publishes to.",
        resolve: (source, _args, context) => overviewOf(context, source.workspaceId)
      }
      fields.socialAccounts = {
        type: new GraphQLNonNull(new GraphQLList(types.output(account, "SocialAccount"))),
        description:
          "The connected social accounts (one per platform at most), and whether each needs reconnecting; svc_connect_social_accounts answers the address to connect one.",
        resolve: async (source, _args, context) => (await overviewOf(context, source.workspaceId)).accounts
      }
    }
    return fields
  })

/**
 * `post(id)`: one post through the service the scheduling tools call (`Scheduling.getPost`), after the tool server's
 * access and plan rules for reading scheduling, encoded by svc_list_scheduled_posts's own answer schema so that it is
 * the same record the list and the mutations answer.
 */
const postField = (
  type: GraphQLOutputType,
  listPosts: Tool,
  scheduling: Scheduling
): GraphQLFieldConfig<InWorkspace, GraphqlContext, { readonly id: string }> => {
  const encodeAnswer = Schema.encodeSync(listPosts.outputSchema)
  return {
    type,
    description: "One post with its deliveries (not-found for one of another workspace).",
    args: { id: { type: new GraphQLNonNull(GraphQLString), description: "Post id (post_…)." } },
    resolve: async (source, { id }, context) => {
      // The rules of reading scheduling through svc_list_scheduled_posts, the tool whose record this answers.
      const refusal = groupRefusal(await context.toolsCaller(), listPosts)
      if (refusal !== undefined) throw failureError({ status: "forbidden", message: refusal.message })
      const post = await context.run(scheduling.getPost(source.workspaceId, id))
      const answer = encodeAnswer({ ok: true, posts: [postRecord(post)] }) as {
        readonly posts: ReadonlyArray<unknown>
      }
      return answer.posts[0]
    }
  }
}
