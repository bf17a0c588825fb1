/**
 * What one platform shows after a send, printed beside the receipt: one row per plan part
 * (delivered, degraded with the rule applied, failed with the reason and the fix), and
 * under each delivered part what arrived, its formatting visible.
 */
import { type DeliveryReceipt, failureToJson, type ObservedMessage } from "@outbox/core";
import type { Platform } from "../platforms.js";
import { explain } from "./explain.js";
import { firstLines, showFormatted } from "./formatted.js";
import { padEnd, type Terminal, widest } from "./terminal.js";

/** A receipt and, when an emulator is behind the adapter, what the platform holds. */
export interface DeliveryReport {
  /** Platform name. */
  platform: string;
  /** What the adapter reported. */
  receipt: DeliveryReceipt;
  /** What the emulator holds after the send; absent for a real platform. */
  observed?: ObservedMessage[];
}

/** Options of {@link printReport}. */
export interface PrintOptions {
  /** A text of at most this many lines is shown whole; a longer one shows its first lines and `… N more lines`. */
  maxLines: number;
  /** The registry entry, for platform-specific fixes. */
  platform?: Platform;
  /** Explain failures (reason and fix) in their rows; when false only the code is shown (the caller explains them elsewhere). Default true. */
  explainFailures?: boolean;
}

/** Lines shown of a text too long to show whole. */
const PREVIEW_LINES = 3;

type Row = { part: string; status: string; sent: string; detail: string[] };

/** Print the header line and the part table of one report. */
export function printReport(term: Terminal, report: DeliveryReport, options: PrintOptions): void {
  const c = term.colors;
  const { receipt } = report;
  term.out(`${c.bold(report.platform)}  ${summary(term, receipt)}`);
  const rows: Array<Row & { order: number }> = [];
  receipt.messages.forEach((message, index) => {
    const degraded = receipt.degraded.filter((d) => d.part === message.part);
    const seen = report.observed?.[index];
    rows.push({
      order: message.part,
      part: String(message.part),
      status: degraded.length > 0 ? c.yellow("degraded") : c.green("delivered"),
      sent: `${message.kind} #${message.id}`,
      detail: [
        ...(seen ? describe(term, seen, options.maxLines) : []),
        ...degraded.map((d) => c.yellow(`↳ ${d.from} → ${d.to}: ${d.reason}`)),
      ],
    });
  });
  for (const failure of receipt.failures) {
    rows.push({
      order: failure.part,
      part: String(failure.part),
      status: c.red("failed"),
      sent: "—",
      detail: [
        c.red(
          options.explainFailures === false
            ? failure.error.code
            : explain(failure.error, options.platform, {
                ambiguous: failure.ambiguous === true,
                delivered: receipt.messages.length,
              }),
        ),
      ],
    });
  }
  rows.sort((a, b) => a.order - b.order);
  const widths = [
    widest(rows.map((r) => r.part)),
    widest(rows.map((r) => r.status)),
    widest(rows.map((r) => r.sent)),
  ];
  const indent = " ".repeat(2 + widths.reduce((sum, w) => sum + w + 2, 0));
  for (const row of rows) {
    const [first = "", ...rest] = row.detail;
    const cells = [
      row.part.padStart(widths[0] ?? 0),
      padEnd(row.status, widths[1] ?? 0),
      padEnd(row.sent, widths[2] ?? 0),
    ];
    term.out(`  ${cells.join("  ")}  ${first}`.trimEnd());
    for (const line of rest) term.out(`${indent}${line}`.trimEnd());
  }
}

/**
 * The report as plain JSON: each failure as core's `failureToJson` gives it (`{ part, code,
 * message, content?, ambiguous, retryable, action? }`) plus the media `ref?` of a media error.
 */
export function reportJson(report: DeliveryReport): object {
  const { receipt } = report;
  return {
    platform: report.platform,
    receipt: {
      ok: receipt.ok,
      messages: receipt.messages,
      degraded: receipt.degraded,
      failures: receipt.failures.map((failure) => ({
        ...failureToJson(failure),
        ...("ref" in failure.error && typeof failure.error.ref === "string"
          ? { ref: failure.error.ref }
          : {}),
      })),
    },
    ...(report.observed ? { observed: report.observed } : {}),
  };
}

/** `delivered 5 · degraded 1 · failed 2`, coloured by outcome. */
function summary(term: Terminal, receipt: DeliveryReceipt): string {
  const c = term.colors;
  const parts = new Set(receipt.messages.map((m) => m.part)).size;
  const degraded = new Set(receipt.degraded.map((d) => d.part)).size;
  const counts = `${parts} delivered · ${degraded} degraded · ${receipt.failures.length} failed`;
  if (receipt.ok) return c.green(`✓ ${counts}`);
  return parts > 0 ? c.yellow(`◐ ${counts}`) : c.red(`✗ ${counts}`);
}

/** One line saying what arrived, then its text or caption with formatting visible. */
function describe(term: Terminal, message: ObservedMessage, maxLines: number): string[] {
  const c = term.colors;
  const where = [
    message.replyTo ? `reply to #${message.replyTo}` : "",
    message.thread ? `in thread ${message.thread}` : "",
  ].filter(Boolean);
  const body = message.text ?? message.caption;
  let head: string;
  if (message.kind === "text") head = `text, ${(message.text ?? "").length} chars`;
  else if (message.kind === "album")
    head = `album: ${(message.items ?? []).map((item) => file(item)).join(", ")}`;
  else head = file(message);
  const lines = [c.dim([head, ...where].join(" · "))];
  if (body) {
    const lineCount = body.split("\n").length;
    const shown = firstLines(body, message.formatting, lineCount <= maxLines ? lineCount : PREVIEW_LINES);
    for (const line of showFormatted(shown.text, shown.spans, term.style).split("\n"))
      lines.push(`│ ${line}`);
    if (shown.hidden > 0) lines.push(c.dim(`│ … ${shown.hidden} more lines`));
  }
  return lines;
}

function file(message: ObservedMessage): string {
  const size =
    message.bytes === undefined
      ? ""
      : `, ${message.bytes < 1024 ? `${message.bytes} B` : `${(message.bytes / 1024).toFixed(1)} kB`}`;
  return `${message.kind} ${message.fileName ?? "(no name)"} (${message.mimeType ?? "?"}${size})`;
}
