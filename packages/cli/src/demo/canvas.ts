/**
 * The canvas the showcase's `[embed ref="latency" …]` points at, served by `outbox demo --web`
 * beside the inbox: a small self-contained HTML page (inline SVG, no script, no network) that
 * the inbox frames in its sandbox.
 */

/** The showcase's canvas ref. */
export const CANVAS_REF = "latency";

/** Where the embed's ref points (core's default canvas URL for the ref). */
export const CANVAS_PATH = `/__openclaw__/canvas/documents/${CANVAS_REF}/index.html`;

const P99_MS = [118, 121, 117, 131, 126, 119, 112, 109, 111, 104, 102, 99];

/** The canvas document. */
export function latencyCanvas(): string {
  const width = 560;
  const height = 150;
  const max = 140;
  const step = width / (P99_MS.length - 1);
  const points = P99_MS.map(
    (ms, i) => `${(i * step).toFixed(1)},${(height - (ms / max) * height).toFixed(1)}`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Latency</title>
<style>body{margin:0;padding:12px 16px;font:13px system-ui,sans-serif;color:#1c1c1e;background:#fbfbfd}
h1{font-size:14px;margin:0 0 8px}.note{color:#666;margin-top:6px}</style></head><body>
<h1>p99 latency, last 12 regions (ms)</h1>
<svg viewBox="0 -10 ${width} ${height + 20}" width="100%" height="${height}" role="img" aria-label="p99 latency per region">
<line x1="0" y1="${height - (120 / max) * height}" x2="${width}" y2="${height - (120 / max) * height}" stroke="#d33" stroke-dasharray="4 4"/>
<polyline fill="none" stroke="#0a66d8" stroke-width="3" points="${points.join(" ")}"/>
${points.map((p) => `<circle cx="${p.split(",")[0]}" cy="${p.split(",")[1]}" r="4" fill="#0a66d8"/>`).join("")}
</svg>
<div class="note">dashed: the 120 ms budget · every region under it after the deploy</div>
</body></html>`;
}
