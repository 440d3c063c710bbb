// One seed for the fault suite per test run, shared by every test file (each runs in a process of its
// own): FAULT_SEED replays a run, else a fresh one, printed here and in every scenario's name.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { suiteSeed } from '../fault/lib/seeded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    faultSeed: number;
  }
}

export default function setup(project: TestProject): void {
  const seed = suiteSeed();
  project.provide('faultSeed', seed);
  process.stderr.write(`fault suite seed ${seed} (replay with FAULT_SEED=${seed})\n`);
}
