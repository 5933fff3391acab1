/**
 * @module tar.gz archives over npm `tar`: list and unpack an archive held in memory (the embedded
 * HCP Terraform server reads uploads with it). Unpacking keeps every entry inside the target
 * directory (absolute paths and `..` are stripped by `tar`), since archives come from API clients.
 */
import { Buffer } from "node:buffer";
import { mkdir } from "node:fs/promises";
import * as tar from "tar";

/** Feeds `archive` to a tar parser and resolves when it has read it all. */
function feed(parser: tar.Parser, archive: Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    parser.on("error", reject);
    parser.on("close", () => resolve());
    parser.end(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
  });
}

/** The paths of every entry; rejects when the bytes are not a readable tar.gz. */
export async function listTarGz(archive: Uint8Array): Promise<string[]> {
  const paths: string[] = [];
  const parser = new tar.Parser({ strict: true, onReadEntry: (entry) => { paths.push(entry.path); entry.resume(); } });
  await feed(parser, archive);
  return paths;
}

/** Unpacks `archive` into `directory` (created when missing). */
export async function extractTarGz(archive: Uint8Array, directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  await feed(tar.x({ cwd: directory, strict: true }), archive);
}
