// The redaction denylist of SPEC 6 as vocabulary: header names whose values are secrets. Console logging
// redacts them (server/redact.ts); record mode never writes them to disk (record/headers.ts).

/** Header values never printed and never recorded. */
export const HEADER_DENYLIST = ['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key'] as const;
