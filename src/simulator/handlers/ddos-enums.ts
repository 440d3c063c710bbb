// 4.5 DDoS enums: a static catalogue of enum groups (API.md 2.8).
import { json, type Reply } from '../replies.js';

function value(
  name: string,
  v: number,
  opts: { premium?: boolean; values?: string[]; operators?: string[] } = {},
) {
  return {
    optionalInput: opts.values !== undefined,
    isPremium: opts.premium ?? false,
    name,
    value: v,
    supportedValues: { values: opts.values ?? [], editable: opts.values !== undefined },
    recommendedOperator: { values: opts.operators ?? [] },
  };
}

const CATALOGUE = {
  data: [
    {
      enumName: 'DDoSSensitivity',
      enumValues: [value('Off', 0), value('Low', 1), value('Medium', 2), value('High', 3, { premium: true })],
    },
    {
      enumName: 'DDoSChallengeWindow',
      enumValues: [
        value('FiveMinutes', 300),
        value('ThirtyMinutes', 1800),
        value('OneHour', 3600),
        value('Custom', -1, { premium: true, values: ['60', '86400'], operators: ['between'] }),
      ],
    },
    {
      enumName: 'DDoSMitigationAction',
      enumValues: [value('Log', 0), value('Challenge', 1), value('Block', 2)],
    },
    {
      enumName: 'DDoSMatchVariable',
      enumValues: [
        value('RemoteAddress', 0, { values: ['ipv4', 'ipv6', 'cidr'], operators: ['equals', 'inRange'] }),
        value('Country', 1, { values: ['ISO 3166-1 alpha-2'], operators: ['equals'] }),
        value('Asn', 2, { premium: true, values: ['number'], operators: ['equals'] }),
      ],
    },
  ],
};

const BODY = JSON.stringify(CATALOGUE);

export function ddosEnums(): Reply {
  return json(200, BODY);
}
