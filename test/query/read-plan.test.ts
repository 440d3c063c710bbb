import { describe, expect, it } from 'vitest';
import { readPlan, type ArchiveFiles } from '../../src/store/sqlite/read-plan.js';

const F = '/srv/edgelog/archive.db';
const files = (f: Partial<ArchiveFiles>): ArchiveFiles => ({
  file: F,
  exists: true,
  readable: true,
  wal: null,
  shm: null,
  dirWritable: false,
  ...f,
});
const wal = (bytes: number, readable = true) => ({ bytes, readable });

describe('readPlan', () => {
  it.each([
    ['no -wal: the file holds every commit', files({}), 'snapshot'],
    [
      'no -wal, writable directory: still a snapshot (nothing is left behind)',
      files({ dirWritable: true }),
      'snapshot',
    ],
    ['a live archive: -wal and -shm readable', files({ wal: wal(4152), shm: { readable: true } }), 'wal'],
    ['an empty -wal beside its -shm', files({ wal: wal(0), shm: { readable: true } }), 'wal'],
    [
      '-wal without -shm, writable directory: SQLite creates the -shm',
      files({ wal: wal(4152), dirWritable: true }),
      'wal',
    ],
    ['an empty -wal without -shm, read-only directory: nothing to miss', files({ wal: wal(0) }), 'snapshot'],
  ] as const)('%s: %s', (_name, f, kind) => {
    expect(readPlan(f)).toEqual({ kind });
  });

  it.each([
    [
      'a missing file',
      files({ exists: false, readable: false }),
      /^no such file \(run `edgelog sync` or `edgelog migrate`/,
    ],
    [
      'an unreadable file',
      files({ readable: false }),
      /^this user may not read it \(it needs read permission on the file\)$/,
    ],
    ['an unreadable -wal', files({ wal: wal(10, false), shm: { readable: true } }), `may not read ${F}-wal`],
    ['an unreadable -shm', files({ wal: wal(10), shm: { readable: false } }), `may not read ${F}-shm`],
    [
      'commits in a -wal whose -shm cannot be created',
      files({ wal: wal(4152) }),
      `its write-ahead log ${F}-wal holds commits, reading it needs ${F}-shm, which is missing, and this user may not create it`,
    ],
  ] as const)('refuses %s, saying why', (_name, f, reason) => {
    const plan = readPlan(f);
    expect(plan.kind).toBe('refused');
    expect(plan.kind === 'refused' && plan.reason).toMatch(reason);
  });
});
