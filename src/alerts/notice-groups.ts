// Pure: grouping notices (Alertmanager's group_wait). A notice is given its group when it is made: the
// rule and the window of `groupWait` its time falls in. The notices of one group that wait in the
// outbox go to a hook as one job once the window has closed; its key is derived from the group (so a
// hand-over repeated after a crash adds nothing) and is the receiver's Idempotency-Key.
import { createHash } from 'node:crypto';
import type { Notice } from './payload.js';

export interface NoticeGroup {
  /** `rule@windowStart` */
  key: string;
  /** When the window closes (ms): the group is handed then. */
  closesAt: number;
}

/** The group of a notice of `rule` made at `now`; none (sent alone, at once) when `waitMs` is 0. */
export function noticeGroup(rule: string, now: number, waitMs: number): NoticeGroup | undefined {
  if (waitMs <= 0) return undefined;
  const start = now - (((now % waitMs) + waitMs) % waitMs);
  return { key: `${rule}@${start}`, closesAt: start + waitMs };
}

/** The idempotency key of a group's notice to a hook: derived from the group, never from the clock. */
export function groupId(group: string): string {
  return `g${createHash('sha256').update(group).digest('hex').slice(0, 32)}`;
}

export interface Pending<N> {
  id: string;
  hook: string;
  notice: N;
}

export interface HandOver<N> {
  /** Notices that go alone (no group, or the only one of theirs). */
  single: Array<Pending<N>>;
  /** Groups of two or more, per hook, whose window has closed (or `closeAll`). */
  groups: Array<{ id: string; hook: string; members: Array<Pending<N>> }>;
  /** The earliest time an open group closes; null when none is open. */
  nextClose: number | null;
}

/**
 * Sorts the outbox's waiting notices: groups whose window closed (all when `closeAll`, e.g. a one-shot
 * `sync` that evaluated everything it will) are handed, the others wait until `nextClose`.
 */
export function handOver<N extends Pick<Notice, 'group'>>(
  pending: ReadonlyArray<Pending<N>>,
  now: number,
  closeAll = false,
): HandOver<N> {
  const out: HandOver<N> = { single: [], groups: [], nextClose: null };
  const byGroup = new Map<string, Array<Pending<N>>>();
  for (const p of pending) {
    const g = p.notice.group;
    if (!g) {
      out.single.push(p);
      continue;
    }
    if (!closeAll && g.closesAt > now) {
      out.nextClose = Math.min(out.nextClose ?? g.closesAt, g.closesAt);
      continue;
    }
    const k = `${g.key}\u0000${p.hook}`;
    byGroup.set(k, [...(byGroup.get(k) ?? []), p]);
  }
  for (const members of byGroup.values()) {
    if (members.length === 1) out.single.push(members[0]!);
    else {
      const { notice, hook } = members[0]!;
      out.groups.push({ id: groupId(notice.group!.key), hook, members });
    }
  }
  return out;
}
