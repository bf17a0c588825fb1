import type { Capabilities, MediaKind } from "@outbox/core";

const MB = 1024 * 1024;

/** Bytes as a short human figure (`50 MB`, `512 KB`). */
function bytes(value: number | undefined): string {
  if (value === undefined) return "—";
  if (value >= MB) return `${+(value / MB).toFixed(1)} MB`;
  return `${+(value / 1024).toFixed(1)} KB`;
}

/** An upload limit: 0 is a kind never uploaded (it goes by link). */
const uploads = (value: number) => (value === 0 ? "none" : bytes(value));

const yes = (value: boolean) => (value ? "yes" : "no");

/** The MIME types a kind takes, where the adapter declares them (short names: `jpeg, png`). */
function formats(c: Capabilities, kind: MediaKind): string {
  const types = c.media.kinds.includes(kind) ? c.media.formats?.[kind] : undefined;
  if (types === undefined) return "";
  const short = types.map((t) => t.replace(/^[a-z]+\/(vnd\.(openxmlformats-officedocument\.|ms-))?/, ""));
  return ` (${short.join(", ")})`;
}
const kinds: MediaKind[] = ["image", "animation", "video", "audio", "document"];

/** One row of the matrix: a label and a cell per adapter. */
type Row = [label: string, cell: (caps: Capabilities) => string];

const rows: Row[] = [
  ["text limit (rendered)", (c) => String(c.text.maxLength)],
  ["chunk size", (c) => String(c.text.chunkLength ?? c.text.maxLength)],
  ["markup", (c) => `\`${c.text.format}\``],
  [
    "caption limit",
    (c) =>
      c.caption
        ? `${c.caption.maxLength}${c.caption.kinds ? ` (${c.caption.kinds.join(", ")})` : ""}`
        : "no captions",
  ],
  ...kinds.map(
    (kind): Row => [
      `${kind}: native / upload limit`,
      (c) =>
        `${yes(c.media.kinds.includes(kind))} / ${uploads(c.media.maxBytes[kind] ?? c.media.maxBytes.default)}${formats(c, kind)}`,
    ],
  ),
  [
    "platform fetches URLs (limit)",
    (c) =>
      c.media.byUrl
        ? `yes (${bytes(c.media.byUrl.default)}, image ${bytes(c.media.byUrl.image ?? c.media.byUrl.default)})`
        : "no",
  ],
  [
    "albums",
    (c) =>
      c.album
        ? `${c.album.minItems}–${c.album.maxItems}: ${c.album.groups.map((g) => g.join("+")).join("; ")}`
        : "no",
  ],
  ["voice", (c) => (c.voice.mode === "native" ? `native (${c.voice.formats.join(", ")})` : "as audio file")],
  [
    "replies",
    (c) =>
      typeof c.replies === "object" ? `yes (unknown target ${c.replies.unknownTarget})` : yes(c.replies),
  ],
  ["threads", (c) => yes(c.threads)],
  ["Markdown images → media", (c) => yes(c.markdownImages)],
  ["edits (live preview)", (c) => (c.edits ? `yes, one per ${c.edits.minIntervalMs} ms per message` : "no")],
  [
    "rate limits",
    (c) =>
      c.rateLimits.length === 0
        ? "none"
        : c.rateLimits
            .map(
              (l) =>
                `${l.limit}/${l.intervalMs / 1000}s ${l.scope}${l.match ? ` (\`${l.match}\`)` : ""}${l.burst ? `, burst ${l.burst}` : ""}`,
            )
            .join("; "),
  ],
];

/** Render docs/capabilities.md from the adapters' declared capabilities. */
export function renderCapabilityMatrix(
  adapters: Array<{ name: string; capabilities: Capabilities }>,
): string {
  const header = `| | ${adapters.map((a) => a.name).join(" | ")} |`;
  const rule = `|---|${adapters.map(() => "---").join("|")}|`;
  const body = rows.map(
    ([label, cell]) => `| ${label} | ${adapters.map((a) => cell(a.capabilities)).join(" | ")} |`,
  );
  return [
    "# Capability matrix",
    "",
    "Generated from each adapter's `capabilities` by `test/capability-matrix.test.ts`; do not edit by hand.",
    "Regenerate with `OUTBOX_UPDATE_DOCS=1 npx vitest run --project repo capability-matrix`.",
    "",
    header,
    rule,
    ...body,
    "",
  ].join("\n");
}
