import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authed, createEmulatedChannel, type WebEmulatedChannel } from "./support.js";

let channel: WebEmulatedChannel;
beforeEach(async () => {
  channel = await createEmulatedChannel();
});
afterEach(async () => {
  await channel.close();
});

describe("the page", () => {
  it("shows delivered messages under the DOM contract, history included", async () => {
    const receipt = await channel.adapter.send(
      { text: "**Hello** _there_", replyToCurrent: true },
      channel.target,
    );
    expect(receipt.ok).toBe(true);
    const [message] = receipt.messages;
    const response = await authed(channel, "");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<main id="ob-messages" data-conversation="demo"');
    expect(html).toContain(
      `<article class="ob-message" data-id="${message?.id}" data-kind="text" data-author="assistant" data-reply-to="inbound-1">`,
    );
    expect(html).toContain(
      '<blockquote class="ob-reply-ref" data-reply-to="inbound-1">Show me what you can do.</blockquote>',
    );
    expect(html).toContain('<div class="ob-text"><p><strong>Hello</strong> <em>there</em></p></div>');
    expect(html).toContain('<div id="ob-status" data-state="reconnecting">');
  });

  it("trades the token in the link for a cookie and a clean URL", async () => {
    const first = await fetch(channel.pageUrl, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("./");
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(first.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);
    const page = await fetch(`${channel.inbox.url}/c/demo/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    // Without the trailing slash the page redirects to it (its links are relative), query kept.
    const bare = await fetch(`${channel.inbox.url}/c/demo?token=t`, { redirect: "manual" });
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("demo/?token=t");
  });
});
