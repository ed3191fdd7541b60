import type { WorkspacesRepo } from "@svc/core/accounts"
import type { Authenticator } from "@svc/core/auth"
import type { ToolServer } from "@svc/core/tools"

/**
 * The services the GraphQL resolvers run their effects with. Apart from the modules that import graphql, so the
 * face's public type (`GraphqlRoutes`) names no module an install without the GraphQL packages lacks.
 */
export type GraphqlServices = ToolServer | Authenticator | WorkspacesRepo
