// Pure: how to open the archive for reading, decided from what is on disk beside it. SQLite reads a
// WAL-mode database through its `-wal` (commits not yet copied into the file) and `-shm` (the index of
// that log, shared by every connection); a read-only connection creates whichever is missing, so it
// needs write access to the directory, and cannot remove them again when it closes (wal.html#readonly).

/** What the opener found beside the archive; `wal` and `shm` are `null` when missing. */
export interface ArchiveFiles {
  /** The database file, absolute. */
  file: string;
  exists: boolean;
  /** This user may read the database file. */
  readable: boolean;
  wal: { bytes: number; readable: boolean } | null;
  shm: { readable: boolean } | null;
  /** This user may create files in the file's directory. */
  dirWritable: boolean;
}

export type ReadPlan =
  /** SQLite's own read of a live archive: shared locks, commits in the `-wal` included. */
  | { kind: 'wal' }
  /**
   * No `-wal`, or an empty one: the file holds every commit. Read it as an immutable snapshot: no locks,
   * nothing created beside it, so a read-only directory works and nothing is left behind.
   */
  | { kind: 'snapshot' }
  | { kind: 'refused'; reason: string };

const READ = 'it needs read permission';

export function readPlan(f: ArchiveFiles): ReadPlan {
  const refused = (reason: string): ReadPlan => ({ kind: 'refused', reason });
  if (!f.exists) return refused('no such file (run `edgelog sync` or `edgelog migrate` first to create it)');
  if (!f.readable) return refused(`this user may not read it (${READ} on the file)`);
  if (f.wal === null) return { kind: 'snapshot' };
  if (!f.wal.readable) return refused(`this user may not read ${f.file}-wal (${READ} on it too)`);
  if (f.shm !== null) {
    return f.shm.readable
      ? { kind: 'wal' }
      : refused(`this user may not read ${f.file}-shm (${READ} on it too)`);
  }
  // SQLite creates the missing -shm (which then stays behind: the log cannot be read without it).
  if (f.dirWritable) return { kind: 'wal' };
  if (f.wal.bytes === 0) return { kind: 'snapshot' };
  // Reading the file alone would silently miss the commits in the log.
  return refused(
    `its write-ahead log ${f.file}-wal holds commits, reading it needs ${f.file}-shm, which is missing, ` +
      'and this user may not create it in the directory; let the archive owner run `edgelog migrate` ' +
      'once (closing the archive folds the log into the file), or grant write permission on the directory',
  );
}
