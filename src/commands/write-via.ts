// An export's bytes go through a temporary file in a directory only its owner may enter (entries hold
// what clients sent: cookies, tokens; DuckDB's COPY makes its file anew, readable by everyone the umask
// lets, whatever mode a file of that name had). Beside `file` the result is then linked in place as
// 0600 (an existing file is never replaced unless `force`, and a reader never sees a part); without a
// file the directory is in the temp directory and the result is copied to stdout. Whatever happens (the
// reader closes the pipe, the write fails, the process exits), the temporary directory is gone after.
import { chmodSync, createReadStream, linkSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors/usage-error.js';
import { PRIVATE_FILE_MODE } from '../file-modes.js';
import { streamOutput, type Stdout } from '../format/output.js';

/**
 * Runs `write` on a private temporary file and puts what it wrote at `file` (or on `stdout` when `file`
 * is null); returns what `write` returned. A closed stdout throws OutputClosedError (output.ts).
 */
export async function writeVia<T>(
  file: string | null,
  force: boolean,
  write: (temp: string) => Promise<T>,
  stdout?: Stdout,
): Promise<T> {
  // mkdtemp makes the directory 0700.
  const dir = mkdtempSync(
    file === null ? join(tmpdir(), 'edgelog-export-') : join(dirname(file), `.${basename(file)}.tmp-`),
  );
  const remove = () => rmSync(dir, { recursive: true, force: true });
  // The CLI exits at once when the reader closes stdout (cli.ts): the directory must not outlive it.
  process.once('exit', remove);
  try {
    const temp = join(dir, 'export');
    const result = await write(temp);
    if (file === null) {
      const out = streamOutput(stdout!);
      for await (const chunk of createReadStream(temp)) await out.write(chunk as Buffer);
      return result;
    }
    chmodSync(temp, PRIVATE_FILE_MODE);
    if (force) renameSync(temp, file);
    else {
      try {
        linkSync(temp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new UsageError(
            `${file} appeared meanwhile: choose another --output, or --force to replace it`,
          );
        throw err;
      }
    }
    return result;
  } finally {
    process.off('exit', remove);
    remove();
  }
}
