// An export's temporary file (src/commands/write-via.ts): in a directory only its owner may enter, whatever
// the umask and whatever mode its writer gives the file, and gone afterwards whatever happened — a write
// that failed, a reader that closed the pipe.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeVia } from '../../src/commands/write-via.js';
import { OutputClosedError } from '../../src/format/output.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('an export written through a temporary file, under umask 022', () => {
  let dir: string;
  let previousUmask: number;
  let previousTmp: string | undefined;
  beforeAll(() => {
    previousUmask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(previousUmask);
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-write-via-'));
    previousTmp = process.env.TMPDIR;
    // os.tmpdir() reads TMPDIR on each call: the stdout case's private directory is made in here.
    process.env.TMPDIR = join(dir, 'tmp');
    mkdirSync(join(dir, 'tmp'));
  });
  afterEach(() => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(dir, { recursive: true, force: true });
  });

  it('beside --output: written in a 0700 directory, linked in place 0600, nothing else is left', async () => {
    const file = join(dir, 'out.parquet');
    const seen = await writeVia(file, false, (temp) => {
      // As DuckDB's COPY does: a new file, as open as the umask lets.
      writeFileSync(temp, 'rows', { mode: 0o666 });
      return Promise.resolve(mode(dirname(temp)));
    });
    expect(seen).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('a write that fails leaves no temporary file and no output', async () => {
    const file = join(dir, 'out.parquet');
    await expect(
      writeVia(file, false, (temp) => {
        writeFileSync(temp, 'half');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(readdirSync(dir).filter((n) => n.startsWith('out') || n.includes('.tmp-'))).toEqual([]);
  });

  it('to stdout whose reader went away: OutputClosedError, and the temporary directory is gone', async () => {
    const stdout = new PassThrough();
    stdout.on('error', () => {});
    let made = '';
    const done = writeVia(
      null,
      false,
      (temp) => {
        made = temp;
        expect(mode(dirname(temp))).toBe(0o700);
        writeFileSync(temp, Buffer.alloc(1 << 20, 1));
        // The reader closes the pipe as the copy starts (EPIPE arrives as an 'error').
        setImmediate(() => stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })));
        return Promise.resolve(1);
      },
      stdout,
    );
    await expect(done).rejects.toBeInstanceOf(OutputClosedError);
    expect(made.startsWith(join(dir, 'tmp', 'edgelog-export-'))).toBe(true);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });
});
