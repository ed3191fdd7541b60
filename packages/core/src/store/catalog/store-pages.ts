import { Context } from "effect"

/**
 * The store's pages that its messages and answers point to. `settingsPage` is where the store's owner changes what
 * only they can change; `publicBase` is the server's public address, under which buyers open the store's public
 * pages (the checkout, `/c/<product id>`). The server gives both from its public URL; an embedder that gives none
 * gets paths alone.
 */
export class StorePages extends Context.Reference<StorePages>()("svc/store/StorePages", {
  defaultValue: (): { readonly settingsPage: string; readonly publicBase: string } => ({
    settingsPage: "/settings",
    publicBase: ""
  })
}) {}
