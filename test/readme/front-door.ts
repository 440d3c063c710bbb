// The README's front door as commands: what its opening block and "Your own account in five steps" tell
// a newcomer to type, and what the CLI prints for them to type next. Pure text handling; the walk that
// runs them is test/e2e/front-door.test.ts.

/** The heading of the section that takes a newcomer from the demo to their own account. */
export const STEPS_HEADING = '## Your own account in five steps';

/**
 * The README's front-door text: from the top to the first `## ` heading (the two commands), and the
 * five steps' section. Throws when the section is gone: the walk must not pass on an empty README.
 */
export function frontDoorText(readme: string): string {
  const firstHeading = readme.indexOf('\n## ');
  const steps = readme.indexOf(`\n${STEPS_HEADING}\n`);
  if (firstHeading < 0 || steps < 0) throw new Error(`README.md has no "${STEPS_HEADING}" section`);
  const end = readme.indexOf('\n## ', steps + 1);
  return `${readme.slice(0, firstHeading)}\n${readme.slice(steps, end < 0 ? undefined : end)}`;
}

/** A command a newcomer types: `npm ci`, `npx edgelog …` or `export NAME=value`. */
const TYPED = /^(npm ci|npx edgelog( |$)|export [A-Z_]+=)/;

/**
 * Every command the front door shows, in order, each once: the lines of its code blocks (comments
 * dropped, `a && b` split) and its inline code spans (a span wrapped across lines joined by one space).
 * Prose words in code (`npx`, `edgelog status`, `npm test`) are not commands a newcomer types in turn.
 */
export function readmeCommands(readme: string): string[] {
  const text = frontDoorText(readme);
  const found: string[] = [];
  const blocks = /^```[a-z]*\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(blocks)) {
    for (const line of m[1]!.split('\n')) found.push(...line.replace(/\s+#.*$/, '').split(' && '));
  }
  const prose = text.replace(blocks, '');
  for (const m of prose.matchAll(/`([^`]+)`/g)) found.push(m[1]!.replace(/\s+/g, ' '));
  return unique(found.map((c) => c.trim()).filter((c) => TYPED.test(c)));
}

/** The `npx edgelog …` lines a command printed for the user to type next (indented, comments dropped). */
export function printedCommands(stdout: string): string[] {
  return unique([...stdout.matchAll(/^ {2}(npx edgelog [^\n]*?)(?: {2,}#[^\n]*)?$/gm)].map((m) => m[1]!));
}

/** What the walk does with a command. */
export type Step =
  | { kind: 'install' }
  | { kind: 'env'; name: string; value: string }
  | { kind: 'simulator'; port: number }
  | { kind: 'long-running' }
  /** Writes a configuration for zones the simulator lacks: run where it cannot replace the walk's. */
  | { kind: 'aside' }
  | { kind: 'once' };

/** Sorts a command into its step; throws on one the walk cannot take (so a new kind of line is seen). */
export function stepOf(command: string): Step {
  if (command === 'npm ci') return { kind: 'install' };
  const env = /^export ([A-Z_]+)=(\S*)$/.exec(command);
  if (env) return { kind: 'env', name: env[1]!, value: env[2]! };
  const args = command.split(' ').slice(2);
  if (!command.startsWith('npx edgelog ') || args.length === 0) throw new Error(`not a command: ${command}`);
  if (args[0] === 'simulate') {
    const port = Number(/--port (\d+)/.exec(command)?.[1]);
    if (!Number.isInteger(port)) throw new Error(`the simulator needs a fixed port: ${command}`);
    return { kind: 'simulator', port };
  }
  if (args[0] === 'run') return { kind: 'long-running' };
  if (args[0] === 'init' && !args.includes('--simulator')) return { kind: 'aside' };
  return { kind: 'once' };
}

/** The values the walk puts in for the README's placeholders, by the placeholder's text. */
export type Fill = Record<string, string>;

/**
 * The command with each placeholder filled. A placeholder the walk has no value for (`<…>` or `…`
 * left over) throws, naming it: the README would show a step nobody could copy as written.
 */
export function fillIn(command: string, fill: Fill): string {
  let out = command;
  for (const [placeholder, value] of Object.entries(fill)) out = out.replaceAll(placeholder, value);
  const left = /<[^>]*>|…/.exec(out);
  if (left) throw new Error(`no value for ${left[0]} in: ${command}`);
  return out;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
