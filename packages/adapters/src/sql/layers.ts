/** The storage layers: every port of the core over SQL, wired over one `SqlClient` and its `LeanSql`. */
import { Layer } from "effect"
import { IdsLive } from "../system/ids.js"
import { LinkPreviewOffline } from "../system/link-preview-offline.js"
import { SecretsLive } from "../system/secrets.js"
import { WebhookSecretsLive } from "../system/webhook-secrets.js"
import { CredentialSealerLive } from "../system/credential-sealer.js"
import { MailSignerLive } from "../mail/signer.js"
import { MediaLocalLive } from "../media/layers.js"
import { RateLimiterSql } from "./rate-limiter.js"
import { AccountsRepoSql } from "./repos/accounts.js"
import { ApiKeysRepoSql } from "./repos/api-keys.js"
import { BoardsRepoSql } from "./repos/boards.js"
import { ChatsRepoSql } from "./repos/chats.js"
import { AskCallbackQueueSql } from "./repos/ask-callbacks.js"
import { AskJobsSql } from "./repos/ask-jobs.js"
import { CustomAiChatsRepoSql } from "./repos/custom-ai-chats.js"
import { ConnectionsRepoSql } from "./repos/connections.js"
import { CreditsRepoSql } from "./repos/credits.js"
import { KnowledgeRepoSql } from "./repos/custom-ai-knowledge.js"
import { DeliveryQueueSql } from "./repos/deliveries.js"
import { EventLogSql } from "./repos/events.js"
import { HighlightsRepoSql } from "./repos/highlights.js"
import { ItemsRepoSql } from "./repos/items.js"
import { LibraryRepoSql } from "./repos/library.js"
import { OAuthReposSql } from "./repos/oauth.js"
import { MediaRepoSql } from "./repos/media.js"
import { RoutinesRepoSql } from "./repos/routines.js"
import { PostingSchedulesRepoSql } from "./repos/posting-schedules.js"
import { AnalyticsRepoSql } from "./repos/analytics.js"
import { AutoDmRulesRepoSql } from "./repos/auto-dm-rules.js"
import { AutoDmWorkRepoSql } from "./repos/auto-dm-work.js"
import { MusicCatalogRepoSql } from "./repos/music-catalog.js"
import { PostsRepoSql } from "./repos/posts.js"
import { ResearchCacheLive } from "./repos/research-cache.js"
import { ResearchLibraryRepoSql } from "./repos/research-library.js"
import { ResearchListsRepoLive } from "./repos/research-lists.js"
import { SocialAccountsRepoSql } from "./repos/social-accounts.js"
import { MastodonAppsRepoSql } from "./repos/mastodon-apps.js"
import { SearchRepoSql } from "./repos/search.js"
import { SkillsRepoSql } from "./repos/skills.js"
import { StoreReposSql } from "./repos/store-repos.js"
import { TablesRepoSql } from "./repos/tables.js"
import { TagsRepoSql } from "./repos/tags.js"
import { TrashRepoSql } from "./repos/trash.js"
import { WebhooksRepoSql } from "./repos/webhooks.js"
import { WorkspacesRepoSql } from "./repos/workspaces.js"
import { TransactorSql } from "./transactor.js"

/** Every storage port of the core over one `SqlClient` and its `LeanSql` (both from `databaseLayer`). */
export const SqlReposLive = Layer.mergeAll(
  AccountsRepoSql,
  WorkspacesRepoSql,
  ApiKeysRepoSql,
  ItemsRepoSql,
  BoardsRepoSql,
  ConnectionsRepoSql,
  TagsRepoSql,
  TablesRepoSql,
  TrashRepoSql,
  LibraryRepoSql,
  SearchRepoSql,
  HighlightsRepoSql,
  ChatsRepoSql,
  CustomAiChatsRepoSql,
  AskJobsSql,
  AskCallbackQueueSql,
  CreditsRepoSql,
  KnowledgeRepoSql,
  SkillsRepoSql,
  RoutinesRepoSql,
  MediaRepoSql,
  PostsRepoSql,
  SocialAccountsRepoSql,
  PostingSchedulesRepoSql,
  ResearchLibraryRepoSql,
  ResearchListsRepoLive,
  ResearchCacheLive,
  MusicCatalogRepoSql,
  AnalyticsRepoSql,
  AutoDmRulesRepoSql,
  AutoDmWorkRepoSql,
  EventLogSql,
  DeliveryQueueSql,
  OAuthReposSql,
  StoreReposSql,
  WebhooksRepoSql,
  WebhookSecretsLive,
  CredentialSealerLive.pipe(Layer.provide(WebhookSecretsLive)),
  MastodonAppsRepoSql.pipe(Layer.provide(CredentialSealerLive.pipe(Layer.provide(WebhookSecretsLive)))),
  MailSignerLive,
  TransactorSql
)

/**
 * All core ports over SQL plus the system's randomness; the rate limiter in PostgreSQL, so
 * several instances share one count. Swap in `RateLimiterMemory` for a single embedded server.
 */
export const SqlPortsLive = Layer.mergeAll(
  SqlReposLive,
  RateLimiterSql,
  IdsLive,
  SecretsLive,
  LinkPreviewOffline,
  // Media on the filesystem store, in `MediaStoreSettings`' directory (the server picks its store in storage.ts).
  MediaLocalLive
)
