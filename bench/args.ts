// The command line of the single-purpose PostgreSQL benches (`npx tsx bench/<name>.ts --pages 40 …`).
import { DEFAULT_ADMIN_URL } from './postgres-limit.js';

/** The value after `--name` on the command line, else `dflt`. */
export function argOf(name: string, dflt: string, args = process.argv.slice(2)): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : dflt;
}

/** The role the bench makes its databases through: `--url`, else EDGELOG_TEST_DATABASE_URL, else local. */
export const adminUrlArg = (): string =>
  argOf('url', process.env.EDGELOG_TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL);
