/**
 * @module The directories a task create makes for its working directory, so a rejected create
 * removes exactly those: the working directory when it did not exist before, then each parent the
 * create made, while it is empty (another task may have made something there meanwhile). A directory
 * that existed before (a `working_dir` pointing at something of the user's) is never removed.
 */
import { errorMessage, type FileSystem, type Logger } from "../../../core/plugin-api/mod.ts";

export interface CreatedDirectory {
  /** The working directory, missing before the create. */
  readonly path: string;
  /** The topmost directory of its path that was missing (the path itself when only it was). */
  readonly top: string;
}

/** What of `path` is missing now; undefined when the directory exists already. */
export async function firstMissingDirectory(fs: FileSystem, path: string): Promise<CreatedDirectory | undefined> {
  if (await fs.exists(path)) return undefined;
  let top = fs.resolve(path);
  for (;;) {
    const parent = fs.resolve(top, "..");
    if (parent === top || await fs.exists(parent)) return { path: fs.resolve(path), top };
    top = parent;
  }
}

/** Removes what the create made (see the module); a failure is logged. */
export async function removeCreatedDirectory(fs: FileSystem, created: CreatedDirectory | undefined, logger: Logger): Promise<void> {
  if (created === undefined) return;
  try {
    await fs.remove(created.path);
    for (let dir = created.path; dir !== created.top;) {
      dir = fs.resolve(dir, "..");
      if (!(await fs.exists(dir)) || (await fs.readDir(dir)).length > 0) return;
      await fs.remove(dir);
    }
  } catch (error) {
    logger.warn("cannot remove the working directory of a task that was not created", { path: created.path, error: errorMessage(error) });
  }
}
