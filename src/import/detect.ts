// Which format a source is, from its content (never its name): a folder is WireMock's; a document is told by the
// fields each format must have. Pure. Postman v1 and other known-but-unreadable shapes are named so the message
// can say what to do.
import type { ImportFormat } from './formats.js';

export type Detected =
  | { readonly kind: 'format'; readonly format: ImportFormat }
  | { readonly kind: 'unsupported'; readonly what: string; readonly hint: string }
  | { readonly kind: 'unknown' };

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function isPostmanSchema(v: unknown): boolean {
  return typeof v === 'string' && /postman/i.test(v);
}

export function detectFormat(data: unknown): Detected {
  if (Array.isArray(data)) return { kind: 'unknown' };
  if (!isObj(data)) return { kind: 'unknown' };
  if (data['openapi'] !== undefined) return { kind: 'format', format: 'openapi' };
  if (data['swagger'] !== undefined) return { kind: 'format', format: 'swagger' };
  if (isObj(data['log'])) return { kind: 'format', format: 'har' };
  if (Array.isArray(data['mappings']) || (isObj(data['request']) && isObj(data['response'])))
    return { kind: 'format', format: 'wiremock' };
  const info = data['info'];
  if (isObj(info) && (typeof info['_postman_id'] === 'string' || isPostmanSchema(info['schema'])))
    return { kind: 'format', format: 'postman' };
  if (Array.isArray(data['requests']) && typeof data['name'] === 'string' && data['order'] !== undefined)
    return {
      kind: 'unsupported',
      what: 'a Postman v1 collection',
      hint: 'mock reads v2.0 and v2.1. Export it again from Postman as Collection v2.1, or convert it with `npx postman-collection-transformer convert -i <file> -o <new file> -j 1.0.0 -p 2.1.0`',
    };
  if (Array.isArray(data['routes']) && (typeof data['lastMigration'] === 'number' || typeof data['uuid'] === 'string'))
    return { kind: 'format', format: 'mockoon' };
  return { kind: 'unknown' };
}
