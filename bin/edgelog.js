#!/usr/bin/env -S node --max-old-space-size=1024 --max-semi-space-size=8
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, which `npm ci` runs via `prepare`).
// The heap bounds are hints as much as limits: with Node's defaults (old space a quarter of the machine's
// memory, 16 MB semi-spaces) V8 lets garbage from a long ingest pile up before collecting it; with these,
// a 1,000,000-entry day stays under 200 MB (see docs/PERFORMANCE.md). Large single answers still fit.
import { main } from '../dist/cli.js';

await main(process.argv);
