import { AccountsRepo, Plan } from "@svc/core/accounts"
import { Level, levelOf, Part } from "@svc/core/auth"
import type { ToolRegistryShape } from "@svc/core/tools"
import { Effect, Option } from "effect"
import { GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString } from "graphql"
import type { Connections } from "./connections.js"
import type { GraphqlKit, GraphqlPart } from "./parts.js"
import { toolConnectionField } from "./tool-fields.js"

/**
 * `viewer`: who is calling. The account and its plan, the credential, what it may do on each part (the same
 * grant every face checks), and the workspaces it reaches (`svc_list_workspaces`).
 */
export const viewerPart = (kit: GraphqlKit, connections: Connections, registry: ToolRegistryShape) =>
  Effect.gen(function* () {
    const accounts = yield* AccountsRepo
    const { types } = kit
    // Left out where the server does not serve svc_list_workspaces (an embedding backend choosing its areas).
    const listWorkspaces = registry.find("svc_list_workspaces")?.tool
    const workspaces =
      listWorkspaces &&
      toolConnectionField(kit, connections, listWorkspaces, {
        list: "workspaces",
        node: "WorkspaceRow",
        description: "The workspaces this credential reaches, newest first (svc_list_workspaces)."
      })
    const partAccess = new GraphQLObjectType({
      name: types.reserve("PartAccess"),
      description: "What the credential may do on one part of the service.",
      fields: { part: { type: types.output(Part, "Part") }, level: { type: types.output(Level, "AccessLevel") } }
    })
    const credential = new GraphQLObjectType({
      name: types.reserve("Credential"),
      description: "The credential of the request: an API key or an OAuth access token.",
      fields: {
        kind: { type: new GraphQLNonNull(GraphQLString), description: "api_key or oauth." },
        id: { type: new GraphQLNonNull(GraphQLString), description: "The key's id (key_…) or the grant's id." }
      }
    })
    const viewer = new GraphQLObjectType({
      name: types.reserve("Viewer"),
      description: "The caller: its account, plan, credential, access and workspaces.",
      fields: {
        accountId: { type: new GraphQLNonNull(GraphQLString) },
        email: { type: GraphQLString },
        name: { type: GraphQLString },
        plan: { type: types.output(Plan, "Plan") },
        credential: { type: new GraphQLNonNull(credential) },
        defaultWorkspaceId: {
          type: GraphQLString,
          description: "The workspace the credential is bound to, the default of every workspace field."
        },
        access: {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(partAccess))),
          description: "The level on every part (off, read or edit)."
        },
        ...(workspaces === undefined ? {} : { workspaces })
      }
    })
    const part: GraphqlPart = {
      query: {
        viewer: {
          type: new GraphQLNonNull(viewer),
          description: "Who is calling.",
          resolve: async (_source, _args, context) => {
            const principal = await context.toolsCaller()
            const account = await context.run(accounts.findById(principal.accountId))
            return {
              accountId: principal.accountId,
              email: Option.getOrNull(Option.map(account, (a) => a.email)),
              name: Option.getOrNull(Option.map(account, (a) => a.name)),
              plan: principal.plan,
              credential: principal.credential,
              defaultWorkspaceId: principal.workspaceId,
              access: Part.literals.map((p) => ({ part: p, level: levelOf(principal.access, p) })),
              // `workspaces` reads the default workspace's list: svc_list_workspaces lists the account's reach.
              workspaceId: principal.workspaceId ?? undefined
            }
          }
        }
      }
    }
    return part
  })
