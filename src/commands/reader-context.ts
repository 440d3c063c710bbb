// The configuration of a command that only reads the archive (query, report, backup): `database.path`
// alone, read without the schema, so that such a command starts fast (see config/reader-config.ts).
import type { Command } from 'commander';
import { loadReaderConfig, type ReaderConfig } from '../config/reader-config.js';
import type { GlobalOptions } from './shared.js';

export function readerConfig(cmd: Command): ReaderConfig {
  const opts = cmd.optsWithGlobals<GlobalOptions>();
  return loadReaderConfig(opts.config ? { path: opts.config } : {});
}
