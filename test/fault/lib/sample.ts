// A long list of problem values shown in one line: the first three, shortened, and how many more.

export function sample(values: readonly string[]): string {
  const shown = values.slice(0, 3).map((v) => (v.length > 120 ? `${v.slice(0, 120)}…` : v));
  return `${shown.join('; ')}${values.length > 3 ? `; … ${values.length - 3} more` : ''}`;
}
