// Pure: which stored Guardian snapshot errors are failures (status shows only those).
import { expect, it } from 'vitest';
import { snapshotFailure } from '../../src/status/guardian-health.js';

it.each([
  ['no error', null, null],
  ['an error object that says success', '{"success":true,"message":null,"errorKey":null}', null],
  [
    'one that says failure',
    '{"success":false,"message":"zone not found","errorKey":"not_found_or_unauthorised_access.shieldzone"}',
    'same',
  ],
  ['one without success', '{"errorKey":"x"}', 'same'],
  ['success as text is not success', '{"success":"true"}', 'same'],
  ['not JSON', 'HTTP 500', 'same'],
  ['JSON null', 'null', 'same'],
] as const)('%s', (_name, stored, shown) => {
  expect(snapshotFailure(stored)).toBe(shown === 'same' ? stored : shown);
});
