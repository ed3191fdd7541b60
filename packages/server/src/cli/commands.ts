/**
 * The `svc` command tree on `@effect/cli`: each command with its flags and their descriptions, from which the
 * parser and every `--help` are generated. The handlers only gather the flags and hand the work to the modules of
 * each area (`accounts.ts`, `keys.ts`, `store.ts`) through the command's runner.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import { migrations, runMigrations } from "@svc/adapters/sql"
import { Plan } from "@svc/core/accounts"
import { Level, Part } from "@svc/core/auth"
import { ALL_TOOLSETS, toolsetNames } from "@svc/core/tools"
import { Config, Effect, Option } from "effect"
import { CommandContext, CommandExit, onApp, onDatabase, serve } from "./command-context.js"
import { createAccount, setPlan } from "./accounts.js"
import { createKey, listKeys, revokeKey } from "./keys.js"
import { type Output, report } from "./output.js"
import { createCohort, createCustomAi, setStore, tagCustomer } from "./store.js"
import { listen } from "./webhooks-listen.js"
import { musicCommand } from "./music.js"
import { dbCommand } from "./db.js"

const json = Options.boolean("json").pipe(
  Options.withDescription("Print the result (or the failure, on standard error) as one JSON document.")
)
const email = Options.text("email").pipe(Options.withDescription("The account's email (its owner's)."))
const store = Options.text("store").pipe(
  Options.optional,
  Options.withDescription("The store by its handle; left out, the account's default workspace and its store.")
)
const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.optional, Options.withDescription(description))
const plan = Options.choice("plan", Plan.literals)

const migrate = Command.make("migrate", { json }, ({ json }) =>
  onDatabase(json, (output: Output) =>
    Effect.gen(function* () {
      const applied = yield* runMigrations(migrations)
      yield* report(output, { applied: applied.map(([id, name]) => ({ id, name })) }, [
        applied.length === 0
          ? "The database is up to date."
          : `Applied ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}.`
      ])
    })
  )
).pipe(Command.withDescription("Apply the database migrations and exit (svc serve also applies them as it starts)."))

const accounts = Command.make("accounts").pipe(
  Command.withDescription("Accounts: each opens with a default workspace and its store."),
  Command.withSubcommands([
    Command.make(
      "create",
      {
        email,
        password: Options.text("password").pipe(Options.withDescription("The password to sign in with.")),
        name: optionalText("name", "The account's display name."),
        plan: plan.pipe(Options.optional, Options.withDescription("The plan to start on; free when left out.")),
        json
      },
      (flags) =>
        onApp(flags.json, (output) =>
          createAccount(
            {
              email: flags.email,
              password: flags.password,
              name: Option.getOrUndefined(flags.name),
              plan: Option.getOrUndefined(flags.plan)
            },
            output
          )
        )
    ).pipe(Command.withDescription("Open an account, with its default workspace and store."))
  ])
)

const plans = Command.make("plans").pipe(
  Command.withDescription("The plan an account is on."),
  Command.withSubcommands([
    Command.make(
      "set",
      { email, plan: plan.pipe(Options.withDescription("The plan to move the account to.")), json },
      (flags) => onApp(flags.json, (output) => setPlan({ email: flags.email, plan: flags.plan }, output))
    ).pipe(Command.withDescription("Move an account to another plan."))
  ])
)

const keys = Command.make("keys").pipe(
  Command.withDescription("API keys: the bearer tokens agents and apps call svc with."),
  Command.withSubcommands([
    Command.make(
      "create",
      {
        email,
        name: optionalText("name", "A name to tell the key by (default: API key)."),
        access: Options.choice("access", ["full", "custom"]).pipe(
          Options.optional,
          Options.withDescription("full (the default) grants every part; custom grants only the --part levels.")
        ),
        parts: Options.text("part").pipe(
          Options.withPseudoName("part=level"),
          Options.repeated,
          Options.withDescription(
            `A part the key may use, and how far (repeat for each part): parts ${Part.literals.join(" ")}; levels ${Level.literals.join(" ")}.`
          )
        ),
        toolsets: Options.text("toolset").pipe(
          Options.withPseudoName("name[,name...]"),
          Options.repeated,
          Options.withDescription(
            `The toolsets served to the key when a request names none (repeatable, or a comma list): ${toolsetNames.join(" ")}, or ${ALL_TOOLSETS}.`
          )
        ),
        store,
        expiresInDays: Options.integer("expires-in-days").pipe(
          Options.optional,
          Options.withDescription("Days until the key stops working (1 to 3650); left out, it does not expire.")
        ),
        json
      },
      (flags) =>
        onApp(flags.json, (output) =>
          createKey(
            {
              email: flags.email,
              name: Option.getOrUndefined(flags.name),
              access: Option.getOrUndefined(flags.access),
              parts: flags.parts,
              toolsets: flags.toolsets,
              store: Option.getOrUndefined(flags.store),
              expiresInDays: Option.getOrUndefined(flags.expiresInDays)
            },
            output
          )
        )
    ).pipe(Command.withDescription("Make an API key for an account's workspace; its token is printed once.")),
    Command.make("list", { email, json }, (flags) =>
      onApp(flags.json, (output) => listKeys({ email: flags.email }, output))
    ).pipe(Command.withDescription("List an account's API keys (never their tokens).")),
    Command.make(
      "revoke",
      { id: Args.text({ name: "key id" }).pipe(Args.withDescription("The key to revoke (key_…).")), json },
      (flags) => onApp(flags.json, (output) => revokeKey(flags.id, output))
    ).pipe(Command.withDescription("Revoke an API key; running servers stop accepting it within 5 seconds."))
  ])
)

const onOff = (name: string, description: string) =>
  Options.choiceWithValue(name, [
    ["on", true],
    ["off", false]
  ] as const).pipe(Options.optional, Options.withDescription(description))

const storeCommand = Command.make("store").pipe(
  Command.withDescription("A store's settings."),
  Command.withSubcommands([
    Command.make(
      "set",
      {
        email,
        store,
        supportEmail: optionalText(
          "support-email",
          "The address buyers write to, shown on the store's pages; none clears it."
        ).pipe(Options.withPseudoName("address")),
        cardProcessor: Options.choice("card-processor", ["connected", "none"]).pipe(
          Options.optional,
          Options.withDescription("Whether a card processor takes the store's payments.")
        ),
        emailListAddBuyers: onOff("email-list-add-buyers", "Whether buyers join the store's email list."),
        emailDoubleOptIn: onOff("email-double-opt-in", "Whether sign-ups confirm by an emailed link before they join."),
        json
      },
      (flags) =>
        onApp(flags.json, (output) =>
          setStore(
            {
              email: flags.email,
              store: Option.getOrUndefined(flags.store),
              supportEmail: Option.getOrUndefined(flags.supportEmail),
              cardProcessor: Option.getOrUndefined(flags.cardProcessor),
              emailListAddBuyers: Option.getOrUndefined(flags.emailListAddBuyers),
              emailDoubleOptIn: Option.getOrUndefined(flags.emailDoubleOptIn)
            },
            output
          )
        )
    ).pipe(Command.withDescription("Change a store's settings; the flags left out stay as they are."))
  ])
)

const customAis = Command.make("custom-ais").pipe(
  Command.withDescription("Custom AIs: assistants over a workspace's knowledge, sold as store products."),
  Command.withSubcommands([
    Command.make(
      "create",
      { email, name: Options.text("name").pipe(Options.withDescription("The Custom AI's name.")), store, json },
      (flags) =>
        onApp(flags.json, (output) =>
          createCustomAi({ email: flags.email, store: Option.getOrUndefined(flags.store), name: flags.name }, output)
        )
    ).pipe(Command.withDescription("Make a Custom AI in a store's workspace; prints its id (cai_…)."))
  ])
)

const cohorts = Command.make("cohorts").pipe(
  Command.withDescription("Cohorts: groups of a product's buyers who start together."),
  Command.withSubcommands([
    Command.make(
      "create",
      {
        email,
        product: Options.text("product").pipe(
          Options.withPseudoName("product id"),
          Options.withDescription("The product the cohort is of (prod_…).")
        ),
        name: Options.text("name").pipe(Options.withDescription("The cohort's name.")),
        capacity: Options.integer("capacity").pipe(
          Options.optional,
          Options.withDescription("How many buyers it takes; left out, no cap.")
        ),
        startsOn: optionalText("starts-on", "The day it starts, YYYY-MM-DD.").pipe(
          Options.withPseudoName("YYYY-MM-DD")
        ),
        store,
        json
      },
      (flags) =>
        onApp(flags.json, (output) =>
          createCohort(
            {
              email: flags.email,
              store: Option.getOrUndefined(flags.store),
              product: flags.product,
              name: flags.name,
              capacity: Option.getOrUndefined(flags.capacity),
              startsOn: Option.getOrUndefined(flags.startsOn)
            },
            output
          )
        )
    ).pipe(Command.withDescription("Make a cohort of a product; prints its id (coh_…)."))
  ])
)

const customers = Command.make("customers").pipe(
  Command.withDescription("A store's customers."),
  Command.withSubcommands([
    Command.make(
      "tag",
      {
        email,
        customer: Options.text("customer").pipe(
          Options.withPseudoName("email"),
          Options.withDescription("The customer's email.")
        ),
        tags: Options.text("tag").pipe(
          Options.withPseudoName("name"),
          Options.atLeast(1),
          Options.withDescription("A tag to give the customer (repeat for more); a new name makes the tag.")
        ),
        store,
        json
      },
      (flags) =>
        onApp(flags.json, (output) =>
          tagCustomer(
            {
              email: flags.email,
              store: Option.getOrUndefined(flags.store),
              customer: flags.customer,
              tags: flags.tags
            },
            output
          )
        )
    ).pipe(Command.withDescription("Tag a customer; the tags are shared with the store's email list."))
  ])
)

const webhooksCommand = Command.make("webhooks").pipe(
  Command.withDescription("Webhook development."),
  Command.withSubcommands([
    Command.make(
      "listen",
      {
        forwardTo: Options.text("forward-to").pipe(
          Options.withPseudoName("url"),
          Options.withDescription("Where to post each new event, e.g. http://localhost:3000/hooks.")
        ),
        url: Options.text("url").pipe(
          Options.withDefault("http://127.0.0.1:8787"),
          Options.withDescription("The svc server's base URL.")
        ),
        key: Options.text("key").pipe(
          Options.withFallbackConfig(Config.string("SVC_API_KEY")),
          Options.withDescription("A store API key (svc_pat_…; Store: Read is enough); or SVC_API_KEY.")
        ),
        events: Options.text("events").pipe(
          Options.withDefault(""),
          Options.withDescription("Only these event types, comma-separated (purchase.created,customer.created).")
        ),
        pollMs: Options.integer("poll-interval-ms").pipe(
          Options.withDefault(1000),
          Options.withDescription("How often the event log is read, in milliseconds.")
        ),
        json
      },
      (flags) =>
        Effect.flatMap(CommandContext, ({ lines }) =>
          listen(
            {
              forwardTo: flags.forwardTo,
              url: flags.url,
              key: flags.key,
              events: flags.events
                .split(",")
                .map((type) => type.trim())
                .filter((type) => type.length > 0),
              pollMs: Math.max(100, flags.pollMs)
            },
            { json: flags.json, print: lines.stdout }
          ).pipe(
            Effect.catchTag("ListenFailed", (failure) =>
              Effect.zipRight(
                Effect.sync(() =>
                  lines.stderr(
                    flags.json ? JSON.stringify({ ok: false, error: failure.message }) : `svc: ${failure.message}`
                  )
                ),
                Effect.fail(new CommandExit({ code: 1 }))
              )
            )
          )
        )
    ).pipe(
      Command.withDescription(
        "Forward the store's new events to a local address, signed as deliveries are with a secret of this session (printed at start), until Ctrl-C. Reads the event log through the store API: no public address, nothing registered."
      )
    )
  ])
)

const serveCommand = Command.make("serve", {}, () => serve).pipe(
  Command.withDescription("Start the server (as npm start does); it runs until SIGINT or SIGTERM.")
)

/** The commands under `svc`, in the order its help lists them; each group's own are its subcommands. */
export const svcSubcommands = [
  serveCommand,
  migrate,
  dbCommand,
  accounts,
  plans,
  keys,
  storeCommand,
  customAis,
  cohorts,
  customers,
  musicCommand,
  webhooksCommand
] as const

/** The whole `svc` command line. */
export const svcCommand = Command.make("svc").pipe(
  Command.withDescription(
    HelpDoc.blocks([
      HelpDoc.p("svc — the creator-business service for AI agents."),
      HelpDoc.p(
        "Start it with svc serve; open an account with svc accounts create, then give its agents a key with svc keys create. svc <command> --help describes each command."
      ),
      HelpDoc.p("Every command but serve takes --json, for one JSON document instead of text."),
      HelpDoc.p(
        "Storage: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded, default ./.data). While svc serve runs on DATA_DIR, commands are sent to it over DATA_DIR/svc.sock (a Unix socket only its owner can use)."
      )
    ])
  ),
  Command.withSubcommands(svcSubcommands)
)
