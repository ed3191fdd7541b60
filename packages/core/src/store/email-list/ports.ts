import { Context, type Effect, type Option } from "effect"
import type { CreatedRange, Page, PageRequest } from "../../shared/paging.js"
import type { ContactStatus, EmailContact } from "./email-contact.js"

/** A store tag (shared by the store's people, keyed by email). */
export interface StoreTag {
  readonly id: string
  readonly name: string
}

/** Tags on the store's people. */
export class StoreTagsRepo extends Context.Tag("svc/store/StoreTagsRepo")<
  StoreTagsRepo,
  {
    /** The tags with these names, creating the missing ones with the ids given (names match in any case). */
    readonly ensure: (
      workspaceId: string,
      tags: ReadonlyArray<StoreTag>,
      at: Date
    ) => Effect.Effect<ReadonlyArray<StoreTag>>
    /** Puts the tags on the person; answers the ids of those the person did not have yet. */
    readonly addToPerson: (
      workspaceId: string,
      email: string,
      tagIds: ReadonlyArray<string>,
      at: Date
    ) => Effect.Effect<ReadonlyArray<string>>
    /** Takes the tags off the person; answers the ids of those the person had. */
    readonly removeFromPerson: (
      workspaceId: string,
      email: string,
      tagIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<string>>
    /** The store's tags named by these ids or names (names match in any case); unknown ones are left out. */
    readonly resolve: (workspaceId: string, refs: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoreTag>>
    /** The tags of each person, by email (tag names in alphabetical order). */
    readonly tagsOf: (
      workspaceId: string,
      emails: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<StoreTag>>>
    /** The store's tags, newest first, each with how many people on the email list carry it. */
    readonly listPage: (
      workspaceId: string,
      range: CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<StoreTag & { readonly createdAt: Date; readonly contacts: number }>>
  }
>() {}

/** The people on the store's email list. */
export class EmailContactsRepo extends Context.Tag("svc/store/EmailContactsRepo")<
  EmailContactsRepo,
  {
    readonly find: (workspaceId: string, email: string) => Effect.Effect<Option.Option<EmailContact>>
    /** The contact, locked until the transaction ends, so two changes to one person never interleave. */
    readonly lock: (workspaceId: string, email: string) => Effect.Effect<Option.Option<EmailContact>>
    /** Adds the person unless already on the list (a unique key decides); `false` when they were. */
    readonly insert: (contact: EmailContact) => Effect.Effect<boolean>
    /** Saves the name, status and times of a contact. */
    readonly update: (contact: EmailContact) => Effect.Effect<void>
    /** Takes the person off the list, with their tags unless they are also a customer (who keeps them). */
    readonly remove: (workspaceId: string, email: string) => Effect.Effect<void>
    /** How many people the list holds in each state. */
    readonly countByStatus: (workspaceId: string) => Effect.Effect<Readonly<Record<ContactStatus, number>>>
    readonly listPage: (
      workspaceId: string,
      filter: {
        readonly status?: ContactStatus | undefined
        /** Only people with this tag (its id, or its name in any case). */
        readonly tag?: string | undefined
      } & CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<EmailContact>>
  }
>() {}
