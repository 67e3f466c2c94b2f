import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

/** The file that says which process has the embedded database's folder. */
const LOCK_FILE = "putseller.lock";

/** A second process on one embedded data folder: PGlite has no locking of its own, and the two would diverge. */
export class DataDirInUse extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${path.resolve(dataDir)} is in use by process ${pid}. ` +
        `Stop that process, or give this one another DATA_DIR (or a DATABASE_URL to share a PostgreSQL server).`,
    );
  }
}

/**
 * Takes the data folder for this process: creates the lock file exclusively with our pid, or, when
 * one exists, throws DataDirInUse if the process it names is alive (a lock left by a process that
 * died is taken over). Returns the release function (also run at exit).
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(readFileSync(file, "utf8").trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      throw new DataDirInUse(dataDir, holder);
    }
    rmSync(file, { force: true }); // left by a process that is gone
  }
  throw new Error(`Could not take the lock ${file}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
