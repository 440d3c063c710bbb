// Pure: whether `edgelog run` is ready to work, judged from what the probes (probes.ts) found, with a
// message per failed check that says what is wrong and what to do. Each check is a verdict, not a
// boolean, so /readyz can show why.

export type Probe<T> = { ok: T } | { error: string };

export interface ProbeResults {
  /** Where Redis is, for the messages. */
  redisDisplay: string;
  redis: Probe<true>;
  archivePath: string;
  archive: Probe<true>;
  /** The migration files this edgelog ships, and what the archive records as applied. */
  migrations: Probe<{
    files: ReadonlyArray<{ id: number; name: string; checksum: string }>;
    applied: ReadonlyArray<{ id: number; checksum: string }>;
  }>;
  /** The schedulers the configuration wants, and those Redis holds. */
  schedulers: Probe<{ wanted: readonly string[]; present: readonly string[] }>;
}

export type CheckName = 'redis' | 'archive' | 'migrations' | 'schedulers';

export type Check = { ok: true } | { ok: false; problem: string };

export interface Readiness {
  ready: boolean;
  checks: Record<CheckName, Check>;
}

const pass: Check = { ok: true };
const fail = (problem: string): Check => ({ ok: false, problem });

function migrationsCheck(p: ProbeResults['migrations']): Check {
  if ('error' in p) return fail(`cannot read the applied migrations: ${p.error}`);
  const { files, applied: done } = p.ok;
  const applied = new Map(done.map((a) => [a.id, a.checksum]));
  const known = new Set(files.map((f) => f.id));
  const pending = files.filter((f) => !applied.has(f.id)).map((f) => f.name);
  const changed = files.filter((f) => applied.has(f.id) && applied.get(f.id) !== f.checksum);
  const unknown = done.filter((a) => !known.has(a.id)).map((a) => a.id);
  const problems = [
    ...(pending.length > 0
      ? [`not applied: ${pending.join(', ')} (run \`edgelog migrate\`, or restart edgelog run)`]
      : []),
    ...(changed.length > 0
      ? [`changed since they were applied: ${changed.map((f) => f.name).join(', ')}`]
      : []),
    ...(unknown.length > 0 ? [`applied by a newer edgelog: ${unknown.join(', ')} (upgrade this one)`] : []),
  ];
  return problems.length > 0 ? fail(`migrations ${problems.join('; ')}`) : pass;
}

function schedulersCheck(p: ProbeResults['schedulers']): Check {
  if ('error' in p) return fail(`cannot list the schedulers in Redis: ${p.error}`);
  const present = new Set(p.ok.present);
  const missing = p.ok.wanted.filter((id) => !present.has(id));
  if (missing.length === 0) return pass;
  return fail(
    `schedulers missing in Redis: ${missing.join(', ')} (edgelog run creates them at start; restart it if they were removed)`,
  );
}

export function judgeReadiness(p: ProbeResults): Readiness {
  const checks: Record<CheckName, Check> = {
    redis:
      'error' in p.redis
        ? fail(`Redis at ${p.redisDisplay} does not answer: ${p.redis.error} (start it, or check redis.url)`)
        : pass,
    archive:
      'error' in p.archive ? fail(`the archive ${p.archivePath} is not writable: ${p.archive.error}`) : pass,
    migrations: migrationsCheck(p.migrations),
    schedulers: schedulersCheck(p.schedulers),
  };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}
