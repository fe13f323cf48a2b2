import { openSync, closeSync, writeSync, readFileSync, rmSync } from 'node:fs';

export interface FileLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock file holding this process's pid. Returns the pid of the live holder
 * when another process has it; a lock left by a dead process is taken over.
 */
export function tryLock(path: string): FileLock | { heldBy: number } {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(pid) && isAlive(pid)) return { heldBy: pid };
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not take the lock ${path}`);
}
