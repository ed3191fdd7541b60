import { runCommand } from "./cli/main.js"

// `serve` runs until a signal; every other command runs once and exits with its code.
const argv = process.argv.slice(2)
if (argv[0] === "serve") {
  const { runServer } = await import("./serve.js")
  runServer()
} else {
  process.exitCode = await runCommand(argv)
}
