// The six API Guardian counters (API.md 2.7): their names in the API and their columns in
// api_guardian_snapshots, in the order reports show them.
export const GUARDIAN_COUNTER_COLUMNS = {
  totalRequestsInspected: 'total_requests_inspected',
  totalBlockedRequests: 'total_blocked_requests',
  totalLoggedRequests: 'total_logged_requests',
  totalRateLimited: 'total_rate_limited',
  totalFailedRequestValidation: 'total_failed_request_validation',
  totalFailedAuthenticationEnforcement: 'total_failed_authentication_enforcement',
} as const;

export type GuardianCounterName = keyof typeof GUARDIAN_COUNTER_COLUMNS;
export type GuardianCounterColumn = (typeof GUARDIAN_COUNTER_COLUMNS)[GuardianCounterName];

export const GUARDIAN_COUNTER_NAMES = Object.keys(GUARDIAN_COUNTER_COLUMNS) as [
  GuardianCounterName,
  ...GuardianCounterName[],
];
