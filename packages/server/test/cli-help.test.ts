/**
 * `svc --help` and the help of every command under it come from @effect/cli, generated from the command tree: each
 * exits 0, names the command's flags (as the tree declares them), and says what each flag is for. Help and
 * mistakes in the command line are answered without opening any database.
 */
import { readFileSync } from "node:fs"
import * as CommandDescriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Usage from "@effect/cli/Usage"
import { describe, expect, it } from "@effect/vitest"
import { HashMap } from "effect"
import { runCommand, svcCommand, svcSubcommands } from "../src/cli/main.js"

const svc = async (args: ReadonlyArray<string>) => {
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  const code = await runCommand(args, {
    env: {},
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line)
  })
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") }
}

// Every command's words and its own usage, walked from the tree: the groups under `svc`, and their subcommands.
const commands = [
  { path: [] as ReadonlyArray<string>, usage: svcCommand.descriptor },
  ...svcSubcommands.flatMap(({ descriptor }) => {
    const [name = ""] = CommandDescriptor.getNames(descriptor)
    return [
      { path: [name], usage: descriptor },
      ...Array.from(HashMap.toEntries(CommandDescriptor.getSubcommands(descriptor)))
        .filter(([sub]) => sub !== name)
        .map(([sub, child]) => ({ path: [name, sub], usage: child }))
    ]
  })
]

const flagsOf = (descriptor: CommandDescriptor.Command<unknown>) => {
  const usage = HelpDoc.toAnsiText(Usage.getHelp(CommandDescriptor.getUsage(descriptor)))
  return Array.from(new Set(usage.match(/--[a-z][a-z-]*/g) ?? []))
}

// A flag's entry in the OPTIONS section: its heading, then indented paragraphs (its type, its description, notes).
const describedParagraphs = (help: string, flag: string) => {
  const options = help.split(/^OPTIONS$/m)[1]?.split(/^COMMANDS$/m)[0] ?? ""
  const entry = options.split(/\n(?=\S)/).find((block) => block.startsWith(`${flag} `) || block.startsWith(`${flag}\n`))
  return (entry ?? "")
    .split("\n")
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^This (setting is optional|option may be repeated)/.test(line))
}

describe("svc --help", { timeout: 120_000 }, () => {
  it("walks a tree of every command", () => {
    expect(commands.map(({ path }) => path.join(" "))).toEqual(
      expect.arrayContaining(["", "serve", "migrate", "keys", "keys create", "keys revoke", "store set"])
    )
    expect(commands.length).toBeGreaterThan(15)
  })

  it.each(commands.map((command) => [command.path.join(" ") || "(svc)", command] as const))(
    "svc %s --help is generated, names its flags and says what each is for",
    async (_, { path, usage }) => {
      const help = await svc([...path, "--help"])
      expect(help).toMatchObject({ code: 0, stderr: "" })
      expect(help.stdout).toMatch(/^USAGE$/m)
      expect(help.stdout).toMatch(/^DESCRIPTION$/m)
      for (const flag of flagsOf(usage)) {
        expect(help.stdout).toContain(flag)
        // The type line @effect/cli writes, and the description the tree gives.
        expect(describedParagraphs(help.stdout, flag).length, `${flag} of svc ${path.join(" ")}`).toBeGreaterThan(1)
      }
    }
  )

  it("gives every command that runs (all but serve) --json", () => {
    // The commands that run: those no other command is under.
    const under = (path: ReadonlyArray<string>, other: ReadonlyArray<string>) =>
      other.length > path.length && path.every((word, i) => other[i] === word)
    const runs = commands.filter(({ path }) => !commands.some((other) => under(path, other.path)))
    expect(runs.map(({ path }) => path.join(" "))).toContain("keys create")
    for (const { path, usage } of runs) {
      if (path.join(" ") !== "serve") expect(flagsOf(usage), `svc ${path.join(" ")}`).toContain("--json")
    }
  })

  it("lists every command under svc, and answers -h (also after flags) and --version", async () => {
    const root = await svc(["-h"])
    expect(root.code).toBe(0)
    for (const { path } of commands.filter(({ path }) => path.length > 0)) {
      expect(root.stdout).toContain(`- ${path.join(" ")}`)
    }
    const late = await svc(["keys", "create", "--email", "ada@example.com", "-h"])
    expect(late.code).toBe(0)
    expect(late.stdout).toContain("Make an API key")
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    expect(await svc(["--version"])).toEqual({ code: 0, stdout: version, stderr: "" })
  })

  it("answers a mistaken line with exit code 2 and the command's help to read, in text or JSON", async () => {
    expect(await svc(["keys", "revoke"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc: Missing argument <key id> (see svc keys revoke --help)"
    })
    const json = await svc(["plans", "set", "--email", "ada@example.com", "--plan", "gold", "--json"])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stderr)).toEqual({
      ok: false,
      error: "Expected one of the following cases: free, starter, pro (see svc plans set --help)"
    })
  })
})
