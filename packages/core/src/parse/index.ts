/** The rich output protocol: parseReply, normalizePayload, neutralizeMediaDirectives, checkRemoteMediaUrl, createDeliveryTurn. */
export {};
