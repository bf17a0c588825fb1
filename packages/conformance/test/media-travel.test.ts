/**
 * The media travel cases against the reference adapter in its two shapes: as declared
 * (uploads every item, fetches no URL: the cases are n/a), and as a platform that fetches
 * URLs and takes no upload (Teams, LINE): every case runs, strictly, judged by what the
 * reference platform fetched.
 */
import { describe, expect, it } from "vitest";
import { conformanceCases } from "../src/cases/registry.js";
import { describeConformance, runCase } from "../src/describe-conformance.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";
import { createReferenceHarness } from "../src/reference/harness.js";

const TRAVEL = [
  "media.pass-through",
  "media.pass-through.opt-in",
  "media.pass-through.blocked",
  "media.hosted",
  "media.hosted.none",
];

const urlOnly = {
  ...referenceCapabilities,
  media: { ...referenceCapabilities.media, uploads: false, byUrl: { default: 10 * 1024 * 1024 } },
};

describeConformance(createReferenceHarness({ name: "reference, by URL only", capabilities: urlOnly }), {
  strict: true,
  only: TRAVEL,
});

const caseOf = (id: string) => {
  const found = conformanceCases.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no case ${id}`);
  return found;
};

describe("media travel cases have teeth", () => {
  it("are n/a where the platform fetches no URL", async () => {
    for (const id of TRAVEL)
      expect(await runCase(caseOf(id), createReferenceHarness(), { strict: true })).toMatch(/^n\/a: /);
  });

  it("fail a harness that does not pass the media options on", async () => {
    const deaf = createReferenceHarness({ capabilities: urlOnly });
    const harness = { ...deaf, setup: () => deaf.setup() };
    await expect(runCase(caseOf("media.hosted"), harness, { strict: true })).rejects.toThrow();
  });

  it("pass, with an upload, where the platform both uploads and fetches", async () => {
    const harness = createReferenceHarness({
      capabilities: { ...urlOnly, media: { ...urlOnly.media, uploads: true } },
    });
    for (const id of ["media.pass-through", "media.pass-through.opt-in"])
      expect(await runCase(caseOf(id), harness, { strict: true })).toBe("passed");
  });

  it("fail an adapter that uploads what it was told to pass through", async () => {
    const harness = createReferenceHarness({
      capabilities: { ...urlOnly, media: { ...urlOnly.media, uploads: true } },
      transport: (transport) => ({
        ...transport,
        sendMedia: (op) => transport.sendMedia({ ...op, url: undefined }),
      }),
    });
    await expect(runCase(caseOf("media.pass-through"), harness, { strict: true })).rejects.toThrow(
      /URLs the platform fetched/,
    );
  });

  it("a link the platform cannot fetch is a fetch-failed failure with the fix, its signature redacted", async () => {
    const { conformanceMedia } = await import("../src/media-server.js");
    const media = await conformanceMedia();
    const harness = createReferenceHarness({ capabilities: urlOnly });
    const instance = await harness.setup({
      media: {
        host: {
          put: async () => ({
            key: "k",
            url: `${media.hostedPrefix}unknown?exp=1&sig=SIGNATURE`,
            expiresAt: 1,
          }),
          remove: async () => {},
        },
      },
    });
    try {
      const receipt = await instance.adapter.send(
        { text: "", mediaUrls: [media.file("png")] },
        instance.target,
      );
      const [failure] = receipt.failures;
      expect(failure?.error.code).toBe("media_fetch_failed");
      expect(failure?.error.message).toMatch(/could not fetch .* itself \(the URL answered HTTP 40\d\)/);
      expect(failure?.error.message).toContain("publicUrl must be reachable");
      expect(failure?.retryable).toBe(true);
      expect(JSON.stringify(receipt)).not.toContain("SIGNATURE");
      expect(instance.fetched?.()).toHaveLength(1);
    } finally {
      await instance.teardown();
    }
  });

  it("skip outside strict mode when the harness cannot say what was fetched", async () => {
    const blind = createReferenceHarness({ capabilities: urlOnly });
    const harness = {
      ...blind,
      setup: async (options?: Parameters<typeof blind.setup>[0]) => {
        const { fetched: _, ...instance } = await blind.setup(options);
        return instance;
      },
    };
    expect(await runCase(caseOf("media.pass-through"), harness)).toMatch(/^skipped: /);
  });
});
