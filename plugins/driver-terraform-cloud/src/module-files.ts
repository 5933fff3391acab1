/**
 * @module A local module's files for the upload, walked as HCP Terraform's CLI walks a configuration
 * (go-slug): `.terraformignore` honoured, every file's bytes and permission bits kept, a symbolic
 * link kept as a link when it points inside the module and replaced by what it points to when it
 * points outside (the run happens on another machine). Local state and saved plans are left out
 * too: they may hold secrets and mean nothing to the run.
 */
import { CtsError, type FileSystem } from "../../../core/plugin-api/mod.ts";
import { TerraformIgnore } from "./terraform-ignore.ts";
import type { UploadEntry } from "./upload-archive.ts";

/** Never shipped, whatever `.terraformignore` says: local state and plans. */
const NEVER_SHIPPED = /^(terraform\.tfstate(\.backup)?|.*\.tfplan)$/;
/** Links followed out of the module inside one another, at most (a deeper chain is a loop). */
const MAX_LINK_DEPTH = 16;

type WalkingFileSystem = FileSystem & Required<Pick<FileSystem, "readBytes" | "stat" | "readLink">>;

interface Walk {
  readonly fs: WalkingFileSystem;
  readonly root: string;
  readonly ignore: TerraformIgnore;
  readonly prefix: string;
  readonly out: UploadEntry[];
}

function cannot(why: string): CtsError {
  return new CtsError("CTS_ERR_DRIVER", `Cannot pack the local module for HCP Terraform: ${why}`);
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** The module's entries under `prefix/`, sorted by path. */
export async function moduleEntries(fs: FileSystem, root: string, prefix: string): Promise<UploadEntry[]> {
  if (!fs.readBytes || !fs.stat || !fs.readLink) throw cannot("this runtime's file system cannot read bytes and file modes");
  const walking = fs as WalkingFileSystem;
  const ignorePath = fs.resolve(root, ".terraformignore");
  const ignoreText = (await walking.stat(ignorePath, { followLinks: true }))?.kind === "file" ? await fs.readText(ignorePath) : undefined;
  const walk: Walk = { fs: walking, root, ignore: TerraformIgnore.parse(ignoreText), prefix, out: [] };
  await walkDirectory(walk, root, "", 0);
  return walk.out;
}

async function walkDirectory(walk: Walk, dir: string, rel: string, depth: number): Promise<void> {
  for (const name of (await walk.fs.readDir(dir)).sort()) {
    await walkEntry(walk, walk.fs.resolve(dir, name), rel === "" ? name : `${rel}/${name}`, depth);
  }
}

async function walkEntry(walk: Walk, path: string, rel: string, depth: number): Promise<void> {
  const { fs, ignore, prefix, out } = walk;
  const info = await fs.stat(path);
  if (!info) return; // removed while walking
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  // As in go-slug: a directory matched without its slash is not written but still walked.
  if (ignore.match(rel).excluded || (info.kind !== "directory" && NEVER_SHIPPED.test(name))) {
    if (info.kind === "directory") await walkDirectory(walk, path, rel, depth);
    return;
  }
  const target = `${prefix}/${rel}`;
  if (info.kind === "directory") {
    const asDirectory = ignore.match(`${rel}/`);
    if (asDirectory.excluded && asDirectory.dominating) return;
    if (!asDirectory.excluded) out.push({ path: target, kind: "directory", mode: info.mode });
    await walkDirectory(walk, path, rel, depth);
  } else if (info.kind === "file") {
    out.push({ path: target, kind: "file", mode: info.mode, bytes: await fs.readBytes(path) });
  } else if (info.kind === "symlink") {
    await walkLink(walk, path, rel, depth);
  }
  // Sockets, devices and pipes are not configuration: left out, as go-slug does.
}

async function walkLink(walk: Walk, path: string, rel: string, depth: number): Promise<void> {
  const { fs, root, prefix, out } = walk;
  const link = await fs.readLink(path);
  const resolved = fs.resolve(path, "..", link);
  if (within(root, resolved)) {
    out.push({ path: `${prefix}/${rel}`, kind: "symlink", mode: 0o777, target: link });
    return;
  }
  if (depth >= MAX_LINK_DEPTH) throw cannot(`${path}: symbolic links outside the module nest more than ${MAX_LINK_DEPTH} deep (a loop?)`);
  const info = await fs.stat(resolved, { followLinks: true });
  if (!info) throw cannot(`${path} links to ${link}, which does not exist`);
  if (info.kind === "directory") {
    out.push({ path: `${prefix}/${rel}`, kind: "directory", mode: info.mode });
    await walkDirectory(walk, resolved, rel, depth + 1);
  } else if (info.kind === "file") {
    out.push({ path: `${prefix}/${rel}`, kind: "file", mode: info.mode, bytes: await fs.readBytes(resolved) });
  }
}
