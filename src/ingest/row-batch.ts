// The columnar batches moved to the store, which owns them (src/store/rows.ts); re-exported here until
// ingestion imports them from there.
export {
  batchLength,
  emptyOriginBatch,
  emptyShieldBatch,
  originBatch,
  originRowAt,
  pushOrigin,
  pushShield,
  shieldBatch,
  shieldRowAt,
  type Columns,
  type OriginBatch,
  type RejectedEntry,
  type ShieldBatch,
} from '../store/rows.js';
