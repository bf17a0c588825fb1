/**
 * A real S3-compatible server for the tests: s3rver (npm), on a free port on 127.0.0.1, with
 * one bucket in a temporary folder, and an AWS SDK client pointed at it. Every request it
 * receives is recorded, so a test can tell a multipart upload from a single PUT.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** The bucket every server starts with. */
export const BUCKET = "outbox-media";

/** A running server. */
export interface S3Fixture {
  /** A client with s3rver's default credentials, path-style, on this server. */
  client: S3Client;
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Every request received so far: method and URL (path and query). */
  requests: Array<{ method: string; url: string }>;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  /** Stop the server and delete its folder. */
  close(): Promise<void>;
}

/** Start s3rver with {@link BUCKET}. */
export async function startS3(): Promise<S3Fixture> {
  const directory = mkdtempSync(join(tmpdir(), "outbox-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  const requests: S3Fixture["requests"] = [];
  const http = (server as unknown as { httpServer: Server }).httpServer;
  http.on("request", (request: IncomingMessage) =>
    requests.push({ method: request.method ?? "", url: request.url ?? "" }),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  return {
    client,
    endpoint,
    requests,
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
    },
    async close() {
      client.destroy();
      http.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
