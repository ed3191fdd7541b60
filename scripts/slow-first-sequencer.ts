import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * Test files that take longest mostly waiting (child processes, npm, servers, leases), slowest first, as CI on a
 * fresh clone measured them. Vitest's own order runs them by file size when it has no timings cached (a fresh
 * clone, CI), which started several of them last: the run then ended on a tail of one or two files.
 */
const SLOW_FIRST = [
  "packages/server/test/examples.test.ts",
  "packages/server/test/pack.test.ts",
  "packages/server/test/bench-smoke.test.ts",
  "packages/server/test/webhooks-instances.test.ts",
  "packages/server/test/client-pack.test.ts",
  "packages/server/test/openapi-clients.test.ts",
  "packages/server/test/cli.test.ts",
  "packages/server/test/admin-socket.test.ts",
  "packages/server/test/store-cohorts-cli.test.ts",
  "packages/server/test/store-tools-e2e.test.ts",
  "packages/server/test/graphql-serve.test.ts"
]

const rank = (file: TestSpecification): number => {
  const index = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(path))
  return index < 0 ? SLOW_FIRST.length : index
}

/** Vitest's order, with the known slow files moved to the front so they overlap the rest instead of trailing it. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    // Array.prototype.sort is stable: the other files keep Vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b))
  }
}
