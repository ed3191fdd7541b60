import { Layer } from "effect"
import { AccessRepoSql } from "./customers.js"
import { InstantHooksRepoSql } from "./instant-hooks.js"
import { FormsRepoSql } from "./forms.js"
import { MailerOutboxSql, MailOutboxSql } from "./mail-outbox.js"
import { SalesRepoSql } from "./sales.js"
import { DiscountCodesRepoSql } from "./store-discount-codes.js"
import { PaidQuestionsRepoSql } from "./store-paid-questions.js"
import { ReviewRequestsRepoSql } from "./store-review-requests.js"
import { ReviewsRepoSql } from "./store-reviews.js"
import { CreatorPagesRepoSql } from "./store-creator-pages.js"
import { CoursesRepoSql } from "./store-courses.js"
import { AffiliatesRepoSql } from "./store-affiliates.js"
import { SubscriptionsRepoSql } from "./store-subscriptions.js"
import { HostedCheckoutsRepoSql, ProcessorAccountsRepoSql } from "./store-processor.js"
import { BundlesRepoSql } from "./store-bundles.js"
import { ContentLinksRepoSql } from "./store-content-links.js"
import { ProductsRepoSql, StoreFeedRepoSql, StoreSettingsRepoSql } from "./store.js"
import { CohortsRepoSql, WaitlistRepoSql } from "./store-cohorts.js"
import { EmailContactsRepoSql } from "./email-contacts.js"
import { EmailSequencesRepoSql } from "./email-sequences.js"
import { StoreTagsRepoSql } from "./store-tags.js"
import { CustomAisRepoSql } from "./custom-ais.js"
import { StoreStatsRepoSql } from "./store-stats.js"

/** The store's storage ports (with the instant hooks of its API, and the outbox `Mailer`) over one `SqlClient`. */
export const StoreReposSql = Layer.mergeAll(
  CustomAisRepoSql,
  ProductsRepoSql,
  BundlesRepoSql,
  StoreSettingsRepoSql,
  SalesRepoSql,
  DiscountCodesRepoSql,
  PaidQuestionsRepoSql,
  ReviewsRepoSql,
  ReviewRequestsRepoSql,
  CreatorPagesRepoSql,
  CoursesRepoSql,
  AffiliatesRepoSql,
  SubscriptionsRepoSql,
  ProcessorAccountsRepoSql,
  HostedCheckoutsRepoSql,
  AccessRepoSql,
  StoreFeedRepoSql,
  CohortsRepoSql,
  WaitlistRepoSql,
  StoreTagsRepoSql,
  EmailContactsRepoSql,
  EmailSequencesRepoSql,
  FormsRepoSql,
  StoreStatsRepoSql,
  ContentLinksRepoSql,
  InstantHooksRepoSql,
  MailerOutboxSql,
  MailOutboxSql
)
