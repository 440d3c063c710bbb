// Who holds a day's lease, and whether that holder is known to be gone.
//
// A lease names its holder `<job>#<run>@<host>/<machine>/<pid>`. `<run>` is new for every run, so two
// runs of one job in one process (a stalled job BullMQ starts again) never pass for each other. A
// holder's lease normally runs out on its own (it is renewed while the holder works); a process that
// died is taken over at once, but only when that can be known for sure: its pid is looked up only when
// it ran on this machine (same boot) in this pid namespace. A container sharing the host name, or a
// second host of the same name, has another `<machine>`, and is never presumed gone.
//
// EDGELOG_HOST_ID, when set, names the host in place of the system's host name (only in owner names):
// processes on one machine with different ids pass for different hosts, whose pids are never looked up,
// so a lease they leave runs out on its own (how the many-workers test runs "hosts" on one machine).
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** This machine boot and pid namespace, e.g. `3f2a9c1d:4026531836`; '' where it cannot be told (not Linux). */
function machineOf(): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '');
    const ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
    return ns && boot ? `${boot.slice(0, 12)}:${ns}` : '';
  } catch {
    return '';
  }
}

const THIS_MACHINE = machineOf();

/** Pure: the host part of owner names: EDGELOG_HOST_ID when set (trimmed, not empty), else the host name. */
export function hostIdOf(env: Readonly<Record<string, string | undefined>>, systemName: string): string {
  const given = env.EDGELOG_HOST_ID?.trim();
  return given ? given : systemName;
}

const THIS_HOST = hostIdOf(process.env, hostname());

export interface LeaseOwner {
  job: string;
  run: string;
  host: string;
  machine: string;
  pid: number;
}

export function formatOwner(o: LeaseOwner): string {
  return `${o.job}#${o.run}@${o.host}/${o.machine}/${o.pid}`;
}

/** Pure: the parts of an owner name, or null for a name in another (older) form. */
export function parseOwner(name: string): LeaseOwner | null {
  const m = /^(.*)#([0-9a-f]+)@(.+)\/([0-9a-f]*:?\d*)\/(\d+)$/.exec(name);
  if (!m) return null;
  return { job: m[1]!, run: m[2]!, host: m[3]!, machine: m[4]!, pid: Number(m[5]) };
}

/** A lease owner name for one run of `job` in this process. */
export function ownerId(job: string, pid = process.pid): string {
  return formatOwner({
    job,
    run: randomBytes(4).toString('hex'),
    host: THIS_HOST,
    machine: THIS_MACHINE,
    pid,
  });
}

/**
 * Pure: whether `owner`'s process can be checked from `here` (same host name, same machine boot and pid
 * namespace, known), and its pid if so. Another host name is another host, whatever the machine says.
 */
export function checkablePid(
  owner: string,
  here: { host: string; machine: string; pid: number },
): number | null {
  const o = parseOwner(owner);
  if (!o || here.machine === '' || o.host !== here.host || o.machine !== here.machine || o.pid === here.pid)
    return null;
  return o.pid;
}

/**
 * True when the owner ran in a process that no longer exists on this machine (killed, crashed), so its
 * lease can be taken without waiting for it to run out. Never true for owners that cannot be checked.
 */
export function ownerIsGone(owner: string): boolean {
  const pid = checkablePid(owner, { host: THIS_HOST, machine: THIS_MACHINE, pid: process.pid });
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
