/** The Markdown report of a run: goals (met or not) and gates (against the baseline). */
import { type GateResult, goalMet, type Metric } from "./metrics.js";

/** What a run produced. */
export interface RunResult {
  /** `quick` or `full`. */
  mode: "quick" | "full";
  node: string;
  date: string;
  /** 1-minute load average when the run started (the machine is shared). */
  loadAverage: number;
  /** Wall seconds per suite. */
  seconds: Record<string, number>;
  metrics: Metric[];
  /** Suites that threw, with the message. */
  errors: Record<string, string>;
}

const cell = (metric: Metric): string =>
  `${metric.value} ${metric.unit}${metric.spread !== undefined ? ` ±${Math.round(metric.spread * 100)}%` : ""}`;

/** Render the report. */
export function markdownReport(run: RunResult, gates: readonly GateResult[]): string {
  const lines = [
    `# Bench report (${run.mode})`,
    "",
    `Node ${run.node}, ${run.date}, load average ${run.loadAverage} at start. Suites: ${Object.entries(
      run.seconds,
    )
      .map(([name, s]) => `${name} ${s} s`)
      .join(", ")}.`,
    "",
    "## Figures and goals",
    "",
    "| figure | value (median ± spread) | goal | met | gated | what |",
    "|---|---|---|---|---|---|",
  ];
  for (const metric of run.metrics) {
    const met = goalMet(metric);
    const goal = metric.goal ? `${metric.goal.op} ${metric.goal.target}` : "";
    const mark = met === undefined ? "" : met ? "met" : "**not met**";
    lines.push(
      `| ${metric.id} | ${cell(metric)} | ${goal} | ${mark} | ${metric.gate ? "yes" : ""} | ${metric.note ?? ""} |`,
    );
  }
  lines.push("", "## Regression gates (against bench/results/baseline.json)", "");
  if (run.mode === "quick")
    lines.push("A quick run checks the absolute gates (`max`) and the exact counts only.", "");
  if (gates.length === 0) lines.push("No gate compared (no baseline).");
  else {
    lines.push("| gate | now | baseline | allowed | result |", "|---|---|---|---|---|");
    for (const gate of gates)
      lines.push(
        `| ${gate.id} | ${gate.value} | ${gate.baseline} | +${Math.round(gate.tolerance * 100)}% | ${gate.passed ? "pass" : "**FAIL**"} |`,
      );
  }
  for (const [suite, message] of Object.entries(run.errors))
    lines.push("", `**${suite} failed:** ${message}`);
  return `${lines.join("\n")}\n`;
}
