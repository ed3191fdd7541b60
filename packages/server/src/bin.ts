import { runCommand } from "./cli/main.js"

// `svc serve` answers 0 at once and leaves the server running until a signal; every other command runs once.
process.exitCode = await runCommand(process.argv.slice(2))
