export { HttpSenderLive, makeSsrfSafeSender, type ResolvedAddress, type SenderOptions } from "./sender.js"
