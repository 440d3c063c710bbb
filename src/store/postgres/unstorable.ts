// A message (an error, a reason) made storable on PostgreSQL, whose text type refuses U+0000: the rule
// both stores follow (src/values/storable.ts storableMessage). Entries never reach the store with one
// (ingestion quarantines them); an error text quoting an API's body may.
export { storableMessage as storableText } from '../../values/storable.js';
