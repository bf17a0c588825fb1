/** Network policy: which addresses and host names media may be fetched from. */
export { isBlockedHostname } from "./host-policy.js";
export { isBlockedIp } from "./ip-policy.js";
