// A disk that fills up: a small tmpfs mounted for the archive when this process may mount (root), else
// a file size limit (`ulimit -f`) on the CLI child. Either way SQLite's writes start failing part-way
// through an ingest, and `grow()` makes room again.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** How the disk is small: `tmpfs` (ENOSPC) or `ulimit` (EFBIG). */
  kind: 'tmpfs' | 'ulimit';
  /** Where the archive goes: the tmpfs, or undefined for the scene's own folder. */
  dir: string | undefined;
  /** For `ulimit`: the CLI's file size limit in 512-byte blocks, until grow(). */
  fileSizeBlocks: number | undefined;
  /** Makes room: the tmpfs grows to 1 GiB, or the limit is lifted. */
  grow(): void;
  release(): void;
}

function tryMount(bytes: number): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** A small disk of `bytes`; `prefer` picks the file size limit even where a tmpfs could be mounted. */
export function smallDisk(bytes: number, prefer: SmallDisk['kind'] = 'tmpfs'): SmallDisk {
  const mounted = prefer === 'tmpfs' ? tryMount(bytes) : undefined;
  if (mounted) {
    return {
      kind: 'tmpfs',
      dir: mounted,
      fileSizeBlocks: undefined,
      grow: () => execFileSync('mount', ['-o', 'remount,size=1g', mounted]),
      release: () => {
        execFileSync('umount', ['-l', mounted]);
        rmSync(mounted, { recursive: true, force: true });
      },
    };
  }
  const disk: SmallDisk = {
    kind: 'ulimit',
    dir: undefined,
    fileSizeBlocks: Math.ceil(bytes / 512),
    grow: () => (disk.fileSizeBlocks = undefined),
    release: () => {},
  };
  return disk;
}
