// The layer map of docs/ARCHITECTURE.md, checked by `npm run lint` (dependency-cruiser).
//
// Why dependency-cruiser and not madge: one tool checks cycles between files *and* between folders
// (`scope: 'folder'`), type-only imports included (they are read from the TypeScript source), and
// path rules (layer order, dialect folders) — madge would need a second tool for the boundaries.
//
// LAYERS, low to high: a file may import its own layer or a lower one, never a higher one. Folders
// that share a layer may import each other, but not both ways (the folder-cycle rule).
/** @type {string[][]} */
const LAYERS = [
  ['src/errors/', 'src/redact\\.ts', 'src/file-modes\\.ts'],
  ['src/time/', 'src/format/', 'src/values/', 'src/telemetry/'],
  ['src/logger\\.ts'],
  ['src/config/'],
  ['src/api/'],
  ['src/store/'],
  ['src/ingest/', 'src/redis/', 'src/history/'],
  [
    'src/queue/',
    'src/alerts/',
    'src/query/',
    'src/report/',
    'src/status/',
    'src/sync/',
    'src/simulator/',
    'src/completion/',
  ],
  ['src/monitoring/', 'src/console/'],
  ['src/engine\\.ts'],
  ['src/commands/'],
  ['src/cli\\.ts'],
];
const anyOf = (paths) => `^(${paths.join('|')})`;

/** One rule per layer: nothing in it imports a layer above it. */
const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${i}-imports-upward`,
  severity: 'error',
  comment: `${layer.join(', ')} may import only layers 0..${i} (see docs/ARCHITECTURE.md)`,
  from: { path: anyOf(layer) },
  to: { path: anyOf(LAYERS.slice(i + 1).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'An import cycle between files (type-only imports count: they bind the files as tightly).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Two folders that import each other are one folder in disguise: move the shared piece down.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'file-outside-the-layer-map',
      severity: 'error',
      comment:
        'Every file under src/ belongs to a layer: add its folder to LAYERS and to docs/ARCHITECTURE.md.',
      from: { path: '^src/', pathNot: anyOf(LAYERS.flat()) },
      to: {},
    },
    {
      name: 'dialect-folder-from-outside-the-store',
      severity: 'error',
      comment: 'Only src/store/ knows which database it is: the rest reaches a store through its ports.',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/(sqlite|postgres)/' },
    },
    {
      name: 'dialect-folders-apart',
      severity: 'error',
      comment:
        'The dialects mirror each other; what both need lives in src/store/, not in the other dialect.',
      from: { path: '^src/store/(sqlite|postgres)/' },
      to: { path: '^src/store/(sqlite|postgres)/', pathNot: '^src/store/$1/' },
    },
    ...layerRules,
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
