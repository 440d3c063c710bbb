// Shield resources (API.md 2.7, 2.8, 2.10): tolerant of unknown fields and of nulls (API-NOTES).
import { z } from 'zod';
import { inlineError, opt } from './scalars.js';

const count = opt(z.number());

export const overviewEntrySchema = z.looseObject({
  blockedRequests: count,
  loggedRequests: count,
  rateLimited: count,
  requestsInspected: count,
  failedRequestValidation: count,
  failedAuthenticationEnforcement: count,
});

export const apiGuardianMetricsSchema = z.looseObject({
  error: opt(inlineError),
  data: opt(
    z.looseObject({
      totalBlockedRequests: count,
      totalLoggedRequests: count,
      totalRateLimited: count,
      totalRequestsInspected: count,
      totalFailedRequestValidation: count,
      totalFailedAuthenticationEnforcement: count,
      // Its keys are not documented; values are kept as they come and read defensively.
      overviewPastTwentyEightDays: opt(z.record(z.string(), z.unknown())),
    }),
  ),
});

const enumValue = z.looseObject({
  optionalInput: opt(z.boolean()),
  isPremium: opt(z.boolean()),
  name: opt(z.string()),
  value: opt(z.number().int()),
  supportedValues: opt(z.looseObject({ values: opt(z.array(z.string())), editable: opt(z.boolean()) })),
  recommendedOperator: opt(z.looseObject({ values: opt(z.array(z.string())) })),
});

export const ddosEnumsSchema = z.looseObject({
  data: opt(z.array(z.looseObject({ enumName: opt(z.string()), enumValues: opt(z.array(enumValue)) }))),
});

const variableTypes = opt(z.record(z.string(), z.string().nullable()));
const condition = z.looseObject({
  variableTypes,
  value: opt(z.string()),
  isNegated: opt(z.boolean()),
  isRegexVariable: opt(z.boolean()),
});

export const rateLimitSchema = z.looseObject({
  id: opt(z.number().int()),
  shieldZoneId: opt(z.number().int()),
  userId: opt(z.string()),
  ruleName: opt(z.string()),
  ruleDescription: opt(z.string()),
  ruleJson: opt(z.string()),
  ruleConfiguration: opt(
    z.looseObject({
      variableTypes,
      transformationTypes: opt(z.array(z.unknown())),
      value: opt(z.string()),
      isNegated: opt(z.boolean()),
      isRegexVariable: opt(z.boolean()),
      chainedRuleConditions: opt(z.array(condition)),
    }),
  ),
  errorResponse: opt(inlineError),
});

export type ApiGuardianMetrics = z.infer<typeof apiGuardianMetricsSchema>;
export type DdosEnums = z.infer<typeof ddosEnumsSchema>;
export type RateLimit = z.infer<typeof rateLimitSchema>;
