// An operation's security requirement → the 401 rules that go before its other rules: each answers 401 when
// the credential headers it names are all absent (with `www-authenticate` for HTTP schemes). HTTP bearer and
// basic, OAuth 2 and OpenID Connect (a bearer token) read `authorization`; an API key in a header reads that
// header. A key in the query or a cookie is carried as a neutral condition (`elsewhere`): the plan writes it
// when rule sets can match on that place (render.ts WRITABLE_PLACES), and says why not otherwise.
import { deref, entriesOf, isObj, objAt, strAt, type Obj, type Operation } from './document.js';
import { REASONS } from './messages.js';

export interface SecurityRule {
  /** lower-case header names that must all be absent */
  readonly absent: readonly string[];
  /** query parameters and cookies that must be absent too */
  readonly elsewhere?: readonly { readonly in: 'query' | 'cookie'; readonly name: string }[];
  /** the www-authenticate value, when an HTTP scheme is involved */
  readonly challenge?: string;
}

export interface SecurityOutcome {
  readonly rules: readonly SecurityRule[];
  readonly skipped: readonly string[];
}

interface Credential {
  /** a header name, lower case; for a query or cookie key `<in>:<name>` */
  readonly header: string;
  readonly challenge?: string;
}

const ELSEWHERE = /^(query|cookie):(.*)$/s;

type SchemeResult =
  | { readonly ok: true; readonly credential: Credential }
  | { readonly ok: false; readonly reason: string };

function realmOf(doc: Obj): string {
  const title = strAt(objAt(doc, 'info') ?? {}, 'title') ?? 'api';
  return title.replace(/["\\\r\n]/g, '').slice(0, 80) || 'api';
}

function credentialOf(name: string, doc: Obj): SchemeResult {
  const found = deref(doc, objAt(objAt(doc, 'components') ?? {}, 'securitySchemes')?.[name]);
  const scheme = isObj(found) ? found : undefined;
  const type = scheme === undefined ? undefined : strAt(scheme, 'type');
  if (scheme === undefined || type === undefined) return { ok: false, reason: REASONS.unknownScheme(name) };
  switch (type) {
    case 'http': {
      const s = (strAt(scheme, 'scheme') ?? 'bearer').toLowerCase();
      const challenge = s === 'basic' ? `Basic realm="${realmOf(doc)}"` : s.charAt(0).toUpperCase() + s.slice(1);
      return { ok: true, credential: { header: 'authorization', challenge } };
    }
    case 'oauth2':
    case 'openIdConnect':
      return { ok: true, credential: { header: 'authorization', challenge: 'Bearer' } };
    case 'apiKey': {
      const where = strAt(scheme, 'in') ?? 'header';
      const header = strAt(scheme, 'name');
      if ((where === 'query' || where === 'cookie') && header !== undefined && header !== '')
        return { ok: true, credential: { header: `${where}:${header}` } };
      if (where !== 'header' || header === undefined || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(header)) {
        return { ok: false, reason: REASONS.apiKeyNotInHeader(name, where) };
      }
      return { ok: true, credential: { header: header.toLowerCase() } };
    }
    default:
      return { ok: false, reason: REASONS.unknownScheme(name) };
  }
}

function joinChallenges(cs: readonly Credential[]): string | undefined {
  const distinct = [...new Set(cs.flatMap((c) => (c.challenge === undefined ? [] : [c.challenge])))];
  return distinct.length === 0 ? undefined : distinct.join(', ');
}

export function securityRules(o: Operation, doc: Obj): SecurityOutcome {
  const raw = o.op['security'] ?? doc['security'];
  if (!Array.isArray(raw) || raw.length === 0) return { rules: [], skipped: [] };
  const alternatives = raw.filter(isObj);
  // an empty requirement makes the operation open to anonymous callers
  if (alternatives.some((a) => Object.keys(a).length === 0)) return { rules: [], skipped: [] };
  const resolved: Credential[][] = [];
  const skipped: string[] = [];
  for (const alt of alternatives) {
    const creds: Credential[] = [];
    for (const [name] of entriesOf(alt)) {
      const r = credentialOf(name, doc);
      if (r.ok) creds.push(r.credential);
      else skipped.push(r.reason);
    }
    resolved.push(creds);
  }
  // a caller may use an alternative that cannot be checked: then no request can be refused for sure
  if (skipped.length > 0) return { rules: [], skipped };
  if (resolved.length === 1) {
    const creds = resolved[0]!;
    const headers = [...new Set(creds.map((c) => c.header))];
    return {
      rules: headers.map((h) => withChallenge({ absent: [h] }, joinChallenges(creds.filter((c) => c.header === h)))),
      skipped: [],
    };
  }
  if (resolved.every((creds) => new Set(creds.map((c) => c.header)).size === 1)) {
    const all = resolved.flat();
    return {
      rules: [withChallenge({ absent: [...new Set(all.map((c) => c.header))] }, joinChallenges(all))],
      skipped: [],
    };
  }
  return { rules: [], skipped: [REASONS.mixedSecurity()] };
}

function withChallenge(rule: { readonly absent: readonly string[] }, challenge: string | undefined): SecurityRule {
  const absent = rule.absent.filter((h) => !ELSEWHERE.test(h));
  const elsewhere = rule.absent.flatMap((h) => {
    const m = ELSEWHERE.exec(h);
    return m === null ? [] : [{ in: m[1] as 'query' | 'cookie', name: m[2]! }];
  });
  const out: SecurityRule = elsewhere.length === 0 ? { absent } : { absent, elsewhere };
  return challenge === undefined ? out : { ...out, challenge };
}
