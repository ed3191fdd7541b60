import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The test files that take longest, slowest first, as a fresh-clone CI run on a 2-core machine measured them
 * (2026-11-29: 50–125 s each for the first five, 20–50 s for the rest; the median file takes 5 s).
 *
 * A fresh clone has no vitest cache, so vitest would order files by size, and these files are small: they spawn
 * `svc`, pack the packages or run the examples, so they started last and the run ended on one or two of them while
 * the other forks sat idle. Started first, they overlap with the many short files instead. A file missing here only
 * runs in vitest's own order; nothing is left out.
 */
const slowestFirst = [
  "packages/server/test/pack.test.ts",
  "packages/server/test/bench-smoke.test.ts",
  "packages/server/test/examples.test.ts",
  "packages/server/test/webhooks-instances.test.ts",
  "packages/server/test/cli.test.ts",
  "packages/server/test/admin-socket.test.ts",
  "packages/server/test/store-tools-e2e.test.ts",
  "packages/server/test/client-pack.test.ts",
  "packages/server/test/store-cohorts-cli.test.ts",
  "packages/adapters/test/core/compiled-schemas.test.ts",
  "packages/adapters/test/http/abort-storm.test.ts",
  "packages/server/test/openapi-clients.test.ts",
  "packages/adapters/test/store/store-customer-tools.test.ts",
  "packages/server/test/server.test.ts",
  "packages/server/test/graphql-serve.test.ts",
  "packages/adapters/test/store/store-api.test.ts",
  "packages/server/test/webhooks-delivery.test.ts",
  "packages/server/test/custom-ai-restart.test.ts",
  "packages/server/test/tracing.test.ts",
  "packages/server/test/store-cli.test.ts",
  "packages/server/test/oauth-restart.test.ts",
  "packages/server/test/instances.test.ts",
  "packages/server/test/graphql-subscriptions-instances.test.ts",
  "packages/server/test/client-store.test.ts",
  "packages/server/test/client-store-effect.test.ts",
  "packages/adapters/test/oauth/attacks.test.ts"
]

/** Vitest's own order (its cache of durations when it has one, else larger files first), after the slow files above. */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = slowestFirst.indexOf(relative(this.ctx.config.root, file.moduleId).replaceAll("\\", "/"))
      return at === -1 ? slowestFirst.length : at
    }
    const ordered = await super.sort(files)
    // Array.prototype.sort is stable: files of equal rank keep vitest's order.
    return ordered.sort((a, b) => rank(a) - rank(b))
  }
}
