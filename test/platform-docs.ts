/**
 * The per-platform parts of the docs, rendered from the adapter descriptors (settings,
 * targets, which streaming mode suits which platform), and the markers that hold them in a
 * doc, so a platform added to adapters/ shows up in every table without a docs edit.
 */
import type { AdapterDescriptor } from "@outbox/core";

/** A generated block: its name in the markers and how it is rendered. */
export type DocBlock = "platform-settings" | "platform-targets" | "streaming-modes";

/** The markers around a generated block. */
export function markers(block: DocBlock): { begin: string; end: string } {
  return {
    begin: `<!-- generated from the adapter descriptors by test/platform-docs.test.ts: ${block} -->`,
    end: `<!-- end of ${block} -->`,
  };
}

/** `doc` with every generated block it holds rendered anew from `descriptors`. */
export function renderDocBlocks(doc: string, descriptors: readonly AdapterDescriptor[]): string {
  let out = doc;
  for (const block of ["platform-settings", "platform-targets", "streaming-modes"] as const) {
    const { begin, end } = markers(block);
    const start = out.indexOf(begin);
    if (start < 0) continue;
    const stop = out.indexOf(end, start);
    if (stop < 0) throw new Error(`${block}: "${end}" is missing`);
    out = `${out.slice(0, start + begin.length)}\n${render(block, descriptors)}\n${out.slice(stop)}`;
  }
  return out;
}

function render(block: DocBlock, descriptors: readonly AdapterDescriptor[]): string {
  if (block === "platform-settings") return settingsTable(descriptors);
  if (block === "platform-targets") return targetsTable(descriptors);
  return streamingTable(descriptors);
}

const cell = (text: string) => text.replaceAll("|", "\\|");

/** Per platform: the packages to install and every variable it reads. */
function settingsTable(descriptors: readonly AdapterDescriptor[]): string {
  const rows = descriptors.flatMap((d) =>
    d.env.map(
      (variable, i) =>
        `| ${i === 0 ? d.title : ""} | ${i === 0 ? `\`npm install ${d.packages.join(" ")}\`` : ""} | \`${variable.name}\` | ${variable.required ? "required" : "optional"}${variable.secret ? ", secret" : ""} | ${cell(variable.help)} |`,
    ),
  );
  return [
    "| platform | install | variable | | what it is |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** Per platform: what a target (`--to`, MCP's `to`) is. */
function targetsTable(descriptors: readonly AdapterDescriptor[]): string {
  const rows = descriptors.map(
    (d) => `| ${d.title} (\`${d.name}\`) | ${cell(d.target.description)} | \`${d.target.example}\` |`,
  );
  return ["| platform | the target is | example |", "| --- | --- | --- |", ...rows].join("\n");
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;

/** Per platform, from its capabilities: what `blocks` and `preview` cost there, and the mode that suits it. */
function streamingTable(descriptors: readonly AdapterDescriptor[]): string {
  const rows = descriptors.map((d) => {
    const { text, edits, rateLimits } = d.capabilities;
    const chunk = text.chunkLength ?? text.maxLength;
    // The first limit a run of messages to one chat meets: per chat, else the whole bot's.
    const limit =
      rateLimits.find((r) => r.scope === "target" && !r.match) ??
      rateLimits.find((r) => r.scope === "global");
    const blocks = limit
      ? `a message and a notification per block: ${limit.burst ?? limit.limit} at once, then one every ${seconds(limit.intervalMs / limit.limit)}`
      : "a message and a notification per block";
    const preview = edits
      ? `one message, edited at most every ${seconds(edits.minIntervalMs)}`
      : "no edits: runs as `previewFallback` (default `blocks`)";
    const suits = !edits
      ? '`final` (and `previewFallback: "final"`): every block would be a message of its own'
      : edits.minIntervalMs >= 5000
        ? `\`final\`; \`preview\` shows progress only every ${seconds(edits.minIntervalMs)}`
        : "`preview`, or `final`";
    return `| ${d.title} | ${chunk} | ${blocks} | ${preview} | ${suits} |`;
  });
  return [
    "| platform | one message holds | `blocks` | `preview` | suits a long reply |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}
