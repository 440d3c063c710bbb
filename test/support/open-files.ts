// What a child process has open, read from /proc (Linux): lets a test wait until a CLI has reached a
// point it cannot announce itself (an archive opened, then a statement that never yields).
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';

/** Whether process `pid` has `path` open now (false once it has exited). */
export function hasOpen(pid: number, path: string): boolean {
  const target = realpathSync(path);
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // gone
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
    } catch {
      return false; // closed meanwhile
    }
  });
}
