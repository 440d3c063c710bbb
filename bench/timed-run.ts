// One run of a command under /usr/bin/time, for the benches that report a command's peak RSS.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `cmd` in the repository under `/usr/bin/time -f %M`: its wall ms, its peak RSS in MiB (the
 * kernel's high-water mark, VmHWM, as wait4 reports it) and its standard output. Throws unless it exits 0.
 */
export function timedRun(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { cwd: ROOT, env, maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  const err = String(r.stderr);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${err.slice(-800)}`);
  const kib = Number(err.trim().split('\n').at(-1));
  return { ms, rssMb: Math.round(kib / 1024), stdout: String(r.stdout) };
}
