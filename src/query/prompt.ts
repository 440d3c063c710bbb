// The interactive `edgelog query` prompt (a terminal, no statement given): statements in the archive's
// dialect, ended by `;` and possibly over several lines (prompt-input.ts), the listings `.tables` and
// `\d name`, Tab completion of table and column names (prompt-completion.ts), and the lines typed
// recalled with the arrows, kept between sessions in a history file of the user's (mode 0600).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ArchiveRelation } from '../history/archive-schema.js';
import { safeText } from '../format/terminal-text.js';
import type { Stdout } from '../format/output.js';
import { complete, completionNames } from './prompt-completion.js';
import { promptHelp, promptCommand, splitStatements } from './prompt-input.js';
import { findRelation, relationsList, relationText } from './schema-text.js';

/** Lines kept in the history file. */
const HISTORY_SIZE = 500;

export interface PromptOptions {
  input: Readable;
  output: Stdout;
  relations: readonly ArchiveRelation[];
  /** The first line shown (where the archive is). */
  banner: string;
  /** The SQL the statements are in, as `.help` names it, e.g. "DuckDB's SQL: docs/SQL.md". */
  dialect: string;
  /**
   * Runs one statement, writing its result to `output`, until `signal` (Ctrl-C) stops it; a failure it
   * throws is shown and the prompt goes on.
   */
  run(sql: string, signal: AbortSignal): Promise<void>;
  /** Shows a failure (escaped for the terminal). */
  describeFailure(err: unknown): string;
  /** Where the lines typed are kept between sessions, or null for none. */
  historyFile: string | null;
}

function readHistory(file: string | null): string[] {
  if (file === null) return [];
  try {
    // readline wants the newest first; the file holds the oldest first, as shells' do.
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).reverse().slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

function writeHistory(file: string | null, history: readonly string[]): void {
  if (file === null) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${[...history].reverse().join('\n')}\n`, { mode: 0o600 });
  } catch {
    // A history that cannot be kept is no reason to fail the session.
  }
}

/** Runs the prompt until `.quit` or Ctrl-D. */
export async function runPrompt(opts: PromptOptions): Promise<void> {
  const { output } = opts;
  const names = completionNames(opts.relations);
  const rl = createInterface({
    input: opts.input,
    output,
    terminal: true,
    history: readHistory(opts.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string) => complete(line, names),
  });
  const write = (text: string) => void output.write(text);
  let buffer = '';
  const prompt = () => {
    rl.setPrompt(buffer === '' ? 'edgelog> ' : '     ...> ');
    rl.prompt();
  };
  let running: AbortController | null = null;
  rl.on('SIGINT', () => {
    // Ctrl-C stops the statement running, as in psql; else it drops what was typed, and on an empty
    // line it says how to leave.
    if (running !== null) return running.abort();
    const typed = buffer !== '' || rl.line !== '';
    buffer = '';
    rl.write('', { ctrl: true, name: 'e' });
    rl.write('', { ctrl: true, name: 'u' });
    write(typed ? '^C\n' : '\n(.quit or Ctrl-D to leave)\n');
    prompt();
  });
  write(`${safeText(opts.banner)}\nType .help for help, .tables for the tables; statements end with ;\n`);
  prompt();
  try {
    for await (const line of rl) {
      if (buffer === '') {
        const command = promptCommand(line);
        if (command?.kind === 'quit') break;
        if (command !== null) {
          write(listing(command, opts.relations, opts.dialect));
          prompt();
          continue;
        }
      }
      const { statements, rest } = splitStatements(`${buffer}${line}\n`);
      buffer = rest;
      for (const sql of statements) {
        const stop = new AbortController();
        running = stop;
        try {
          await opts.run(sql, stop.signal);
        } catch (err) {
          write(stop.signal.aborted ? 'cancelled\n' : `${opts.describeFailure(err)}\n`);
        } finally {
          running = null;
        }
        // A statement stopped stops those typed after it on the same line too.
        if (stop.signal.aborted) break;
      }
      prompt();
    }
  } finally {
    writeHistory(opts.historyFile, (rl as unknown as { history: string[] }).history);
    rl.close();
    write('\n');
  }
}

/** What a listing command shows. */
function listing(
  command: NonNullable<ReturnType<typeof promptCommand>>,
  relations: readonly ArchiveRelation[],
  dialect: string,
) {
  switch (command.kind) {
    case 'tables':
      return `${relationsList(relations)}\n`;
    case 'describe':
      try {
        return `${relationText(findRelation(relations, command.name))}\n`;
      } catch (err) {
        return `${(err as Error).message}\n`;
      }
    case 'help':
      return promptHelp(dialect);
    case 'quit':
      return '';
    case 'unknown':
      return `unknown command ${safeText(command.text)}: .help lists them\n`;
  }
}
