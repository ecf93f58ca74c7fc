// The page's DOM helpers, the shapes it reads and the management API's envelope call. The journal's entries and
// events are typed by the journal's own wire types (a type-only import: nothing of it reaches the bundle); the
// other answers are read tolerantly, only what is shown.

// --- wire shapes ---------------------------------------------------------------------------------------------
// The journal's entries and events are typed by the journal's own wire types (a type-only import: nothing of it
// reaches the compiled page); the other answers are read tolerantly, only what is shown.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };

export interface Row {
  id: number;
  method: string;
  path: string;
  status: number;
  stage: string;
  latency: number;
  generation: number;
  answered: string;
  /** the scenarios the answer moved, `cart: started → paid` (docs/state.md); '' when none moved */
  moved: string;
  /** a streamed answer still being sent */
  streaming: boolean;
}

export const API = '/__mock/api';
export const MAX_ROWS = 2000;
export const CLIENT_HEADERS = { 'x-mock-client': 'inspector' } as const;
export const OK = '\u2713';
export const FAIL = '\u2717';

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const field = (o: unknown, ...names: string[]): Json | undefined => {
  if (!isObj(o)) return undefined;
  for (const n of names) if (n in o) return o[n];
  return undefined;
};

// --- DOM helpers -------------------------------------------------------------------------------------------

export function $(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`#${id} missing`);
  return e;
}

/** An element with a class and text (textContent: never parsed). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls !== undefined && cls !== '') e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The full text as a tooltip, for cells that may be cut short (a title attribute is plain text, never markup). */
export function titled(e: HTMLElement): HTMLElement {
  e.title = e.textContent ?? '';
  return e;
}

export function clear(e: Element): void {
  while (e.firstChild !== null) e.firstChild.remove();
}

// --- envelope calls ----------------------------------------------------------------------------------------

export type Answer<T = Json> =
  | { ok: true; result: T }
  | { ok: false; status: number; message: string; diagnostics: Json[] };

/** `--inspect-token`: asked once, kept for this tab only (docs/inspector.md#from-a-container) */
export const TOKEN_KEY = 'mock-inspect-token';
export const token = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const authHeaders = (): Record<string, string> => {
  const t = token();
  return t === null ? {} : { authorization: `Bearer ${t}` };
};

/** An envelope call; `T` is what the route answers with (the JSON is our own server's, read as that type). */
export async function call<T = Json>(method: string, path: string, body?: unknown, asked = false): Promise<Answer<T>> {
  try {
    const init: RequestInit = {
      method,
      headers:
        method === 'GET'
          ? authHeaders()
          : {
              ...authHeaders(),
              ...CLIENT_HEADERS,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(path, init);
    if (res.status === 401 && !asked) {
      const given = window.prompt('This management listener needs its token (--inspect-token):');
      if (given !== null && given !== '') {
        sessionStorage.setItem(TOKEN_KEY, given.trim());
        return call<T>(method, path, body, true);
      }
    }
    const env = (res.status === 204 ? { result: null } : await res.json().catch(() => undefined)) as
      | { result?: T }
      | undefined;
    const err = field(env, 'error');
    if (!res.ok || err !== undefined) {
      const diags = field(err, 'diagnostics');
      return {
        ok: false,
        status: res.status,
        message: str(field(err, 'message')) ?? `HTTP ${res.status}`,
        diagnostics: Array.isArray(diags) ? diags : [],
      };
    }
    return { ok: true, result: env?.result as T };
  } catch (e) {
    return { ok: false, status: 0, message: e instanceof Error ? e.message : String(e), diagnostics: [] };
  }
}
