// What the WireMock and Mockoon callback translations share (docs/callbacks.md#imports): a method our callbacks
// take, header pairs, and the body kind a callback's content type and text say.
import { isMethod } from '../model/operators.js';
import type { CallbackText } from '../openapi/render.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The method upper-cased when a callback may use it (GET, POST, PUT, DELETE, PATCH, HEAD). */
export function callbackMethod(v: unknown): string | undefined {
  const m = typeof v === 'string' && v !== '' ? v.toUpperCase() : 'POST';
  return isMethod(m) ? m : undefined;
}

/** `json` when the content type says JSON (or, with none, a literal text parses as JSON), else `text`. */
export function callbackBody(text: string, headers: readonly (readonly [string, string])[]): CallbackText['body'] {
  if (text === '') return undefined;
  const type = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (type !== undefined) return { kind: /json/i.test(type) ? 'json' : 'text', text };
  if (!text.includes('{{')) {
    try {
      JSON.parse(text);
      return { kind: 'json', text };
    } catch {
      // not JSON: a text body
    }
  }
  return { kind: 'text', text };
}
