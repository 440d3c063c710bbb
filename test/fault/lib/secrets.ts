// The secrets of a scene and the scan for them: the access key and hook secrets must appear in no
// output, log line, archive file or Redis value, in any of the forms a leak would take.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rng } from './seeded.js';

export interface Secret {
  name: string;
  value: string;
}

export interface SceneSecrets {
  accessKey: string;
  hookSecret: string;
  slackToken: string;
  /** The password in a PostgreSQL archive's URL (a server on trust ignores it). */
  dbPassword: string;
}

/** Secrets made from the scenario's generator: distinctive, so that a hit cannot be a coincidence. */
export function makeSecrets(rng: Rng): SceneSecrets {
  const hex = () => rng.next().toString(16).padStart(8, '0') + rng.next().toString(16).padStart(8, '0');
  // Drawn in this order so that the first three stay what they were before dbPassword was added.
  return {
    accessKey: `ak-${hex()}`,
    hookSecret: `hs-${hex()}`,
    slackToken: `sl-${hex()}`,
    dbPassword: `pw-${hex()}`,
  };
}

export class SecretScan {
  /** Bytes scanned so far. */
  scanned = 0;
  /** Places a secret was found: "<secret> in <where>". */
  readonly findings: string[] = [];

  constructor(private readonly secrets: readonly Secret[]) {}

  /** Each secret in the forms a leak would take: as it is and percent-encoded. */
  forms(): Array<{ name: string; form: string }> {
    return this.secrets.flatMap((s) =>
      [...new Set([s.value, encodeURIComponent(s.value)])].map((form) => ({ name: s.name, form })),
    );
  }

  /** Counts `bytes` scanned at `where`, and each form found there (searched elsewhere: a database). */
  record(where: string, bytes: number, found: ReadonlyArray<{ name: string }>): void {
    this.scanned += bytes;
    for (const f of found) this.findings.push(`${f.name} in ${where}`);
  }

  /** Looks for each secret as it is and percent-encoded. */
  text(where: string, text: string | Buffer): void {
    const haystack = typeof text === 'string' ? text : text.toString('latin1');
    this.record(
      where,
      haystack.length,
      this.forms().filter((f) => haystack.includes(f.form)),
    );
  }

  /** Every file under `dir` except those `skip` names (the configuration, which holds them by design). */
  files(dir: string, skip: (name: string) => boolean): void {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || skip(entry.name)) continue;
      const path = join(entry.parentPath, entry.name);
      this.text(path, readFileSync(path));
    }
  }
}
