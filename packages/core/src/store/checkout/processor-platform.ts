import { Context } from "effect"

/** The server's own Stripe platform account, with which sellers connect their Stripe accounts (Stripe Connect). */
export interface ConnectPlatform {
  /** The platform's Connect client id (`ca_…`), from Stripe's Connect settings. */
  readonly clientId: string
  /** The platform's secret key: every call for a connected account is made with it, naming the account. */
  readonly secretKey: string
  /** The signing secret of the platform's Connect webhook endpoint (`/stripe/connect/webhooks`). */
  readonly webhookSecret: string
}

/**
 * Whether this server offers Stripe Connect, and with which platform account. Without it (the default) a seller
 * connects Stripe with their own secret key; the server configures it (`SVC_STRIPE_CONNECT_*`).
 */
export class ProcessorPlatform extends Context.Reference<ProcessorPlatform>()("svc/store/ProcessorPlatform", {
  defaultValue: (): { readonly connect: ConnectPlatform | null } => ({ connect: null })
}) {}
