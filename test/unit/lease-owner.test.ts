import { describe, expect, it } from 'vitest';
import { checkablePid, formatOwner, hostIdOf, ownerId, parseOwner } from '../../src/ingest/lease-owner.js';

const owner = (machine: string, pid: number, host = 'worker') =>
  formatOwner({ job: 'job-7', run: 'ab12cd34', host, machine, pid });

describe('lease owners', () => {
  it('names each run of a job apart, even in one process', () => {
    const a = ownerId('job-1');
    const b = ownerId('job-1');
    expect(a).not.toBe(b);
    expect(parseOwner(a)).toMatchObject({ job: 'job-1', pid: process.pid });
  });

  it('parses what it formats', () => {
    expect(parseOwner(owner('3f2a9c1d0e11:4026531836', 42))).toEqual({
      job: 'job-7',
      run: 'ab12cd34',
      host: 'worker',
      machine: '3f2a9c1d0e11:4026531836',
      pid: 42,
    });
    expect(parseOwner('job-7@worker/42')).toBeNull(); // the old form: never presumed gone
  });

  const here = { host: 'worker', machine: '3f2a9c1d0e11:4026531836', pid: 100 };
  it.each([
    ['same boot and pid namespace, another pid: checkable', owner(here.machine, 42), 42],
    ['another pid namespace (a container of the same host name)', owner('3f2a9c1d0e11:4026532000', 42), null],
    ['another machine of the same host name', owner('999999999999:4026531836', 42), null],
    ['this very process', owner(here.machine, 100), null],
    ['another host id on this machine (EDGELOG_HOST_ID)', owner(here.machine, 42, 'worker-b'), null],
    ['a machine that could not be told', owner('', 42), null],
    ['an old-style owner name', 'job-7@worker/42', null],
  ])('%s', (_name, name, pid) => {
    expect(checkablePid(name, here)).toBe(pid);
  });

  it('is never checkable where this machine cannot be told', () => {
    expect(checkablePid(owner('', 42), { host: 'worker', machine: '', pid: 1 })).toBeNull();
  });

  it.each([
    ['no EDGELOG_HOST_ID: the system host name', {}, 'box-1'],
    ['EDGELOG_HOST_ID names the host', { EDGELOG_HOST_ID: 'worker-b' }, 'worker-b'],
    ['trimmed', { EDGELOG_HOST_ID: ' worker-b ' }, 'worker-b'],
    ['empty: the system host name', { EDGELOG_HOST_ID: '  ' }, 'box-1'],
  ])('host id: %s', (_name, env, host) => {
    expect(hostIdOf(env, 'box-1')).toBe(host);
  });
});
