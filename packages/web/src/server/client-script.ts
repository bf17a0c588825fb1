/**
 * The page's one script (sent with a CSP nonce): subscribes to the conversation's event
 * stream, appends each new article (skipping ids already shown), and keeps `#ob-status`
 * at `live` or `reconnecting`. The browser resends `Last-Event-ID` on every reconnect, so
 * the server replays whatever was missed.
 */
export const CLIENT_SCRIPT = `(() => {
  const main = document.getElementById("ob-messages");
  const status = document.getElementById("ob-status");
  const after = main.dataset.lastEvent || "";
  const source = new EventSource("events" + (after === "" ? "" : "?after=" + encodeURIComponent(after)));
  const setState = (state) => { status.dataset.state = state; status.textContent = state === "live" ? "Live" : "Reconnecting…"; };
  source.addEventListener("open", () => setState("live"));
  source.addEventListener("error", () => setState("reconnecting"));
  source.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    const template = document.createElement("template");
    template.innerHTML = data.html;
    const article = template.content.firstElementChild;
    if (!article) return;
    const existing = main.querySelector('article[data-id="' + CSS.escape(article.dataset.id) + '"]');
    if (existing) existing.replaceWith(article); else main.append(article);
    main.dataset.lastEvent = event.lastEventId;
    if (window.innerHeight + window.scrollY >= document.body.scrollHeight - 200) article.scrollIntoView({ block: "end" });
  });
})();`;
