/** Network policy: which addresses and host names media may be fetched from. */
export { isBlockedHostname, isBlockedUrlHost } from "./host-policy.js";
export { isBlockedIp } from "./ip-policy.js";
