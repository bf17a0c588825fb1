/**
 * The conformance counts an adapter doc states ("N cases pass, M are not applicable") add up
 * to the suite's cases, so a doc goes stale loudly when the suite grows. The figures come
 * from a run of the adapter's `test/conformance.test.ts`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { conformanceCases } from "@outbox/conformance";
import { describe, expect, it } from "vitest";

const docs = new URL("../docs/adapters/", import.meta.url);
const stated = readdirSync(docs)
  .map((file) => [file, readFileSync(new URL(file, docs), "utf8")] as const)
  .flatMap(([file, text]) =>
    [...text.matchAll(/(\d+) cases pass, (\d+) are not applicable/g)].map(
      (match) => [file, Number(match[1]), Number(match[2])] as const,
    ),
  );

describe("conformance counts in docs/adapters", () => {
  it("are stated somewhere", () => {
    expect(stated.map(([file]) => file).sort()).toEqual(["matrix.md", "whatsapp.md"]);
  });

  it.each(stated)(
    "%s: passed + not applicable is every case of the suite",
    (_file, passed, notApplicable) => {
      expect(passed + notApplicable).toBe(conformanceCases.length);
    },
  );
});
