// `npm run docs:config`: writes the configuration reference of docs/CONFIGURATION.md from the schema
// (src/config/reference.ts), then formats the page as `npm run lint` expects.
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { configReference, renderReference } from '../../src/config/reference.js';
import { withReference } from './config-table.js';
import { ROOT } from './pages.js';

const path = `${ROOT}docs/CONFIGURATION.md`;
const page = withReference(readFileSync(path, 'utf8'), renderReference(configReference()));
const options = (await resolveConfig(path)) ?? {};
writeFileSync(path, await format(page, { ...options, filepath: path }));
process.stdout.write(`wrote ${configReference().length} keys into docs/CONFIGURATION.md\n`);
