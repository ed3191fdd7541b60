import { Accounts } from "@svc/core/accounts"
import { ApiKeys } from "@svc/core/auth"
import { Secrets } from "@svc/core/shared"
import { Console, Effect } from "effect"

const DEMO_EMAIL = "owner@demo.svc.local"

/**
 * On an empty database, opens a demo owner on the Starter plan and prints, once, how to
 * reach the server and a new API key. Runs only when there is no account at all, so a
 * restart never prints a second key.
 */
export const bootstrapDemoOwner = (baseUrl: string) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    if ((yield* accounts.count) > 0) return
    const secrets = yield* Secrets
    const password = Buffer.from(yield* secrets.randomBytes(12)).toString("base64url")
    const { account, store } = yield* accounts.create({
      email: DEMO_EMAIL,
      password,
      name: "Demo owner",
      plan: "starter"
    })
    const { token } = yield* (yield* ApiKeys).create(account.id, { name: "Bootstrap key" })
    yield* Console.log(
      [
        "",
        "  svc is ready on an empty database. Created a demo owner (Starter plan):",
        `    email     ${account.email}`,
        `    password  ${password}`,
        `    store     ${store.handle}`,
        "",
        "  API key (shown once — copy it now):",
        `    ${token}`,
        "",
        `  MCP endpoint   ${baseUrl}/mcp`,
        `  REST tools     ${baseUrl}/v1/tools`,
        `  OpenAPI        ${baseUrl}/v1/openapi.json`,
        `  Health         ${baseUrl}/health`,
        "",
        "  Try it:",
        `    curl -s -X POST ${baseUrl}/v1/tools/svc_list_workspaces -H 'Authorization: Bearer ${token}'`,
        "",
        "  (Set SVC_BOOTSTRAP=false to skip this on a new database.)",
        ""
      ].join("\n")
    )
  })
