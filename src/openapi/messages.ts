// Every reason and note the OpenAPI mapping can give, in one place.

const q = (s: string): string => '`' + s + '`';

export const REASONS = {
  otherMediaType: (type: string, chosen: string) => `media type ${q(type)} left out: only ${q(chosen)} is answered`,
  nonStringExample: (type: string, name: string | undefined) =>
    `${name === undefined ? 'the example' : `example ${q(name)}`} of ${q(type)} left out: a non-JSON media type is answered only with a string example`,
  noTextBody: (type: string) =>
    `no string example for ${q(type)}, and a non-JSON body (binary, XML …) cannot be made from its schema`,
  externalExample: (name: string, url: string) =>
    `example ${q(name)} left out: its value is external (${url}) and is not fetched`,
  noSchema: () => 'no schema and no example: answered with {}',
  sampleFailed: (why: string) => `no example, and none could be made from the schema: ${why}`,
  headerLeftOut: (name: string) =>
    `response header ${q(name)} left out: no example or schema gives it a single text value`,
  optionsMethod: () => 'OPTIONS is answered by the server itself (CORS preflight); a rule for it could never match',
  unsupportedMethod: (m: string) => `${m} is not a method a rule can match`,
  queryInPath: () => 'the path holds a query string; a response that depends on query parameters cannot be expressed',
  noResponses: () => 'no responses documented',
  defaultNotReachable: () => 'the `default` response has no status code, so `Prefer: code=…` cannot select it',
  undocumentedCode: (operation: string, codes: readonly number[]) =>
    `Prefer: code=… asks for a status ${operation} does not document; documented: ${codes.join(', ')} (answered by the OpenAPI import's rules)`,
  sameStatus: (key: string, status: number) =>
    `response ${q(key)} left out: another response already answers status ${status}`,
  responseUnanswerable: (key: string, why: string) => `response ${q(key)}: ${why}`,
  apiKeyNotInHeader: (scheme: string, where: string) =>
    `security scheme ${q(scheme)} left out: an API key in the ${where} cannot be checked (only header, query and cookie keys get a 401 rule)`,
  needsConditions: (what: string, place: string, name: string) =>
    `${what} left out: it needs ${place} conditions (the ${place === 'query' ? 'query parameter' : 'cookie'} ${q(name)}), which a rule set cannot express yet`,
  fragmentUnknown: (name: string) =>
    `the path's fragment names ${q(name)}, which the operation does not declare as a header or query parameter: no condition can tell this operation from the others on its path`,
  exampleContradicts: (pointer: string) =>
    `the example at ${pointer} contradicts its schema; it is served as the document gives it`,
  unknownScheme: (scheme: string) =>
    `security scheme ${q(scheme)} left out: not declared in components.securitySchemes or not a kind mock can check`,
  mixedSecurity: () =>
    'security left out: alternatives that each need several credentials cannot be expressed as one 401 rule',
} as const;
