import type { ToolRegistryShape } from "@svc/core/tools"
import { SchemaAST as AST } from "effect"
import { type GraphQLInputType, GraphQLNonNull } from "graphql"
import { pascalCase } from "./derive.js"
import { camelCase, type GraphqlKit, type GraphqlPart, type RootFields } from "./parts.js"

const hasRequiredField = (ast: AST.AST): boolean => {
  const encoded = AST.encodedAST(ast)
  return encoded._tag === "TypeLiteral" && encoded.propertySignatures.some((property) => !property.isOptional)
}

/**
 * Every write tool the server serves, as a mutation named for it (`svc_create_note` → `createNote`) with one
 * `input` argument of the tool's own input schema (`workspaceId` included) and the tool's answer as
 * `<Name>Result`: the success payload (`ok: true` and the tool's fields) or a `ToolFailure`. Deprecated aliases
 * are left out: GraphQL has one name per tool. The call is the tool server's, with its access, plan and workspace
 * rules; the root field took the rate limit.
 */
export const toolMutations = (registry: ToolRegistryShape, { types, results }: GraphqlKit): GraphqlPart => {
  const mutation: RootFields = {}
  for (const { entry, tool } of registry.tools) {
    if (!entry.write || entry.aliasOf !== undefined) continue
    const pascal = pascalCase(tool.name)
    const input = types.input(tool.inputSchema, `${pascal}Input`)
    const payload = types.output(tool.outputSchema, `${pascal}Payload`)
    const required = hasRequiredField(tool.inputSchema.ast)
    mutation[camelCase(pascal)] = {
      type: results.union(`${pascal}Result`, payload),
      description: `${tool.title}: ${tool.description}\n\nThe tool ${tool.name}; failures come back as ToolFailure.`,
      args: {
        input: {
          type: required ? input : ((input instanceof GraphQLNonNull ? input.ofType : input) as GraphQLInputType)
        }
      },
      resolve: (_source, args: { readonly input?: Readonly<Record<string, unknown>> | null }, context) =>
        context.callTool(tool.name, args.input ?? {})
    }
  }
  return { mutation }
}
