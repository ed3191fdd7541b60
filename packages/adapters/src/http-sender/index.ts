export { instantHookPolicy, OutboundSettings, type OutboundSettingsShape } from "./config.js"
export {
  DEFAULT_KEEP_ALIVE_MS,
  HttpSenderLive,
  makeSsrfSafeSender,
  type ResolvedAddress,
  type SenderOptions
} from "./sender.js"
export { makePageFetcher, type PageFetcherOptions, PageFetcherLive } from "./page-fetcher.js"
export {
  AddressRefused,
  addressRefusalOf,
  type CheckedFetch,
  type CheckedFetchOptions,
  makeCheckedFetch,
  withDispatcher
} from "./checked-fetch.js"
