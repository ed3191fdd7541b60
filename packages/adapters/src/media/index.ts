/** Media adapters: the filesystem and S3 blob stores, the probe (file-type, sharp), the importer, the URL signer. */
export { MediaFetcherLive, type MediaFetcherOptions, makeMediaFetcher } from "./fetcher.js"
export { MediaFilesystemLive, partPath, uploadPath } from "./filesystem.js"
export { MediaLocalLive, MediaS3Live, mediaLayer, type MediaStoreConfig } from "./layers.js"
export { MediaProbeLive } from "./probe.js"
export { MediaStoreSettings, type MediaStoreSettingsShape, type S3StoreSettings } from "./settings.js"
export { MediaUploadSigner, MediaUploadSignerLive, type UploadGrant } from "./upload-signer.js"
