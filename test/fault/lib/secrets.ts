// The secrets of a scene and the scan for them: the access key and hook secrets must appear in no
// output, log line, archive file or Redis value, in any of the forms a leak would take.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rng } from './seeded.js';

export interface Secret {
  name: string;
  value: string;
}

/** Secrets made from the scenario's generator: distinctive, so that a hit cannot be a coincidence. */
export function makeSecrets(rng: Rng): { accessKey: string; hookSecret: string; slackToken: string } {
  const hex = () => rng.next().toString(16).padStart(8, '0') + rng.next().toString(16).padStart(8, '0');
  return { accessKey: `ak-${hex()}`, hookSecret: `hs-${hex()}`, slackToken: `sl-${hex()}` };
}

export class SecretScan {
  /** Bytes scanned so far. */
  scanned = 0;
  /** Places a secret was found: "<secret> in <where>". */
  readonly findings: string[] = [];

  constructor(private readonly secrets: readonly Secret[]) {}

  /** Looks for each secret as it is and percent-encoded. */
  text(where: string, text: string | Buffer): void {
    const haystack = typeof text === 'string' ? text : text.toString('latin1');
    this.scanned += haystack.length;
    for (const s of this.secrets) {
      for (const form of new Set([s.value, encodeURIComponent(s.value)])) {
        if (haystack.includes(form)) this.findings.push(`${s.name} in ${where}`);
      }
    }
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
