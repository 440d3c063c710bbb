// How the person invoked edgelog, for the commands that hints name: `npx edgelog` from a clone (npm sets
// npm_command=exec for `npx` and `npm exec`), where a bare `edgelog` is not on the PATH; else `edgelog`.

/** Pure: the program as the hints should spell it. */
export function programName(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_command === 'exec' ? 'npx edgelog' : 'edgelog';
}
