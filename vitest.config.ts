import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    // One migrated PGlite database, copied by every test file that needs one (see the file).
    globalSetup: ["packages/adapters/test/support/pglite-template.ts"],
    pool: "forks",
    // Most test files wait on PGlite start-up, child processes and sockets rather than the CPU,
    // so three at a time finish sooner than one per core on a 2-core machine.
    poolOptions: { forks: { minForks: 1, maxForks: 3 } },
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
