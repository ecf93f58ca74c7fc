// HeaderList helpers: names compared case-insensitively, arrival order kept.

export type HeaderList = readonly (readonly [name: string, value: string])[];

export function getHeader(headers: HeaderList, name: string): string | undefined {
  const n = name.toLowerCase();
  for (const [k, v] of headers) if (k.toLowerCase() === n) return v;
  return undefined;
}

export function hasHeader(headers: HeaderList, name: string): boolean {
  return getHeader(headers, name) !== undefined;
}

/** Replace every header of that name (or append), keeping the position of the first. */
export function setHeader(headers: HeaderList, name: string, value: string): HeaderList {
  const n = name.toLowerCase();
  const out: (readonly [string, string])[] = [];
  let done = false;
  for (const h of headers) {
    if (h[0].toLowerCase() === n) {
      if (!done) out.push([n, value]);
      done = true;
    } else out.push(h);
  }
  if (!done) out.push([n, value]);
  return out;
}

export function removeHeader(headers: HeaderList, name: string): HeaderList {
  const n = name.toLowerCase();
  return headers.filter((h) => h[0].toLowerCase() !== n);
}
