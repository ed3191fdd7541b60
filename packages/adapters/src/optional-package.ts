/**
 * Parts of the adapters that need a package a deployment may leave out (the embedded database, the GraphQL face,
 * the language-model providers): their modules are loaded when first used, so an install without the package works
 * until that part is asked for, and then says which package to install.
 */
import { Effect, Schema } from "effect"

/** The part `purpose` names needs `packages`, and at least one of them is not installed. */
export class MissingPackage extends Schema.TaggedError<MissingPackage>()("MissingPackage", {
  packages: Schema.Array(Schema.String),
  purpose: Schema.String,
  cause: Schema.Defect
}) {
  override get message(): string {
    return `${this.purpose} needs ${this.packages.join(" and ")}, which could not be loaded: install ${this.packages.length > 1 ? "them" : "it"} next to @svc/adapters (npm install ${this.packages.join(" ")})`
  }
}

// Node's code for an import whose package (or file) is not there. Any other failure while loading is a defect.
const notInstalled = (cause: unknown) =>
  typeof cause === "object" && cause !== null && "code" in cause && cause.code === "ERR_MODULE_NOT_FOUND"

/**
 * Loads a module that imports optional peer packages. A package that is not installed fails with
 * {@link MissingPackage}; a module that is there but fails to load is a defect, as a static import's failure is.
 */
export const loadOptional = <A>(options: {
  readonly packages: ReadonlyArray<string>
  readonly purpose: string
  readonly load: () => Promise<A>
}): Effect.Effect<A, MissingPackage> =>
  Effect.tryPromise({ try: options.load, catch: (cause) => cause }).pipe(
    Effect.catchAll((cause) =>
      notInstalled(cause)
        ? Effect.fail(new MissingPackage({ packages: options.packages, purpose: options.purpose, cause }))
        : Effect.die(cause)
    )
  )
