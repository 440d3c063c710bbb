#!/usr/bin/env -S node --max-old-space-size=1024
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, which `npm ci` runs via `prepare`).
// The heap bound is a hint as much as a limit: with Node's default (a quarter of the machine's memory)
// V8 lets garbage from a long ingest pile up to 230+ MB before collecting it; with it, a 1,000,000-entry
// day stays under 180 MB (see README, Performance). Large single answers still fit.
import { main } from '../dist/cli.js';

await main(process.argv);
