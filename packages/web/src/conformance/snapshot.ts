/**
 * A snapshot of the rendered inbox: the element tree under `#ob-messages` as plain data,
 * taken inside the page, so the decoder reads exactly what the browser built (after the
 * sanitizer, the renderer and any script on the page). Each element says whether it is
 * rendered at all (`display: none` content is not something a person sees); each media
 * figure can carry a probe of the bytes the browser itself gets from the figure's source.
 */
import type { Page } from "playwright-core";

/** One element of the snapshot. */
export interface DomElement {
  /** Tag name, lower case. */
  tag: string;
  /** Every attribute, as the DOM holds it. */
  attrs: Record<string, string>;
  /** Children in order: elements and text. */
  children: DomNode[];
  /** `false` when the browser does not render the element (display: none, or inside such). */
  rendered: boolean;
  /** For a `figure.ob-media`, what the browser got from its source (when probing). */
  probe?: MediaProbe;
}

/** A text node. */
export interface DomText {
  /** The node's data. */
  text: string;
}

/** A node of the snapshot. */
export type DomNode = DomElement | DomText;

/** What the browser fetched from a media figure's source. */
export interface MediaProbe {
  /** The URL the figure's element loads (`img`/`video`/`audio`/`source` src, or the download link). */
  src: string;
  /** HTTP status of the fetch (0 when it failed). */
  status: number;
  /** `Content-Type` the server sent. */
  contentType?: string;
  /** Hex sha256 of the body. */
  sha256?: string;
  /** Body size. */
  bytes?: number;
}

/** Options of {@link snapshotInbox}. */
export interface SnapshotOptions {
  /** Fetch each media figure's source from inside the page and hash it. Default true. */
  probeMedia?: boolean;
}

/**
 * The script the page runs (a string, so no bundler helper leaks into the page). It returns the
 * `#ob-messages` element as a {@link DomElement}, or `null` when the page has none.
 */
const SNAPSHOT_SCRIPT = `async (options) => {
  const root = document.getElementById("ob-messages");
  if (!root) return null;
  const probes = [];
  const build = (el) => {
    const attrs = {};
    for (const a of Array.from(el.attributes)) attrs[a.name] = a.value;
    const node = { tag: el.localName, attrs, children: [], rendered: el.checkVisibility() };
    for (const child of Array.from(el.childNodes)) {
      if (child.nodeType === 1) node.children.push(build(child));
      else if (child.nodeType === 3 || child.nodeType === 4) node.children.push({ text: child.data });
    }
    if (options.probeMedia && el.localName === "figure" && el.classList.contains("ob-media")) probes.push([node, el]);
    return node;
  };
  const tree = build(root);
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  await Promise.all(probes.map(async ([node, el]) => {
    const source = el.querySelector("img[src], video[src], audio[src], source[src], a.ob-download[href]");
    if (!source) return;
    const src = source.src || source.href;
    try {
      const response = await fetch(src, { credentials: "same-origin" });
      const body = await response.arrayBuffer();
      node.probe = {
        src, status: response.status, contentType: response.headers.get("content-type") || undefined,
        sha256: hex(await crypto.subtle.digest("SHA-256", body)), bytes: body.byteLength,
      };
    } catch {
      node.probe = { src, status: 0 };
    }
  }));
  return tree;
}`;

/** Snapshot the inbox `page` shows; `null` when it has no `#ob-messages`. */
export async function snapshotInbox(page: Page, options: SnapshotOptions = {}): Promise<DomElement | null> {
  const settings = { probeMedia: options.probeMedia ?? true };
  // Serialized in the page: Playwright's own serializer refuses a reference chain as deep as
  // the nesting a hostile reply can reach (a hundred nested quotes), JSON does not.
  const json = await page.evaluate(
    `(async () => JSON.stringify(await (${SNAPSHOT_SCRIPT})(${JSON.stringify(settings)})))()`,
  );
  return JSON.parse(json as string) as DomElement | null;
}

/** Whether a snapshot node is an element. */
export function isElement(node: DomNode): node is DomElement {
  return "tag" in node;
}

/** Whether an element has this class. */
export function hasClass(element: DomElement, name: string): boolean {
  return (element.attrs.class ?? "").split(/\s+/).includes(name);
}

/** Every element under `element` (depth first, in document order) that matches. */
export function findAll(element: DomElement, match: (el: DomElement) => boolean): DomElement[] {
  const found: DomElement[] = [];
  for (const child of element.children) {
    if (!isElement(child)) continue;
    if (match(child)) found.push(child);
    found.push(...findAll(child, match));
  }
  return found;
}

/** The first element under `element` that matches, not looking inside elements `skip` accepts. */
export function findFirst(
  element: DomElement,
  match: (el: DomElement) => boolean,
  skip: (el: DomElement) => boolean = () => false,
): DomElement | undefined {
  for (const child of element.children) {
    if (!isElement(child) || skip(child)) continue;
    if (match(child)) return child;
    const inner = findFirst(child, match, skip);
    if (inner) return inner;
  }
  return undefined;
}
