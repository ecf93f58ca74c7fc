// Answer: the one response type dispatch produces. Respond: the declarative form a rule or script gives.
import type { HeaderList } from '../shared/headers.js';
import type { RespondTemplate } from './template.js';

export interface Answer {
  readonly status: number;
  /** final: defaults + CORS + content-type + content-length + rule headers */
  readonly headers: HeaderList;
  readonly body: Uint8Array;
  /** the server sleeps this long before writing; dispatch never sleeps; `get` ignores it */
  readonly delayMs: number;
  /** made for one request (a rendered template): the server does not remember its wire form */
  readonly fresh?: boolean;
}

export type RespondBody =
  /** absolute path; `confineTo` (absolute dir) when the file must stay inside that directory */
  | { readonly kind: 'file'; readonly path: string; readonly confineTo?: string }
  | { readonly kind: 'text'; readonly text: string }
  /** already minified JSON text, key order kept */
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'empty' };

export interface Respond {
  readonly body: RespondBody;
  /** default 200 */
  readonly status?: number;
  /** names lower-cased; applied last, overriding defaults and content-type (content-length is never taken from here) */
  readonly headers: HeaderList;
  readonly delayMs: number;
  /** set when the answer is a response template (docs/templates.md): its parts are rendered per request */
  readonly template?: RespondTemplate;
}
