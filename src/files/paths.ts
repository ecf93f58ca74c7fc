// Path strings without node:path: files/ never imports node:*, so joining, extension and containment live here.
// Paths are absolute strings as the FileSource gives them: POSIX ('/a/b') or Windows ('C:\a\b', '/' also accepted).

/** Separator used by an absolute path: '\' for a Windows-style path ('C:\…' or '\\server\…'), else '/'. */
export function separatorOf(path: string): '/' | '\\' {
  const c0 = path.charCodeAt(0);
  if (c0 === 47 /* / */) return '/';
  if (c0 === 92 /* \ */) return path.charCodeAt(1) === 92 ? '\\' : '/';
  return path.charCodeAt(1) === 58 /* : */ && path.charCodeAt(2) === 92 && /[A-Za-z]/.test(path[0] ?? '') ? '\\' : '/';
}

/** `dir` + one name. Never normalises `.` or `..`. */
export function joinPath(dir: string, name: string): string {
  const sep = separatorOf(dir);
  return (dir.endsWith(sep) ? dir : dir + sep) + name;
}

/** `dir` + names[0] + … + names[end - 1]. */
export function joinPaths(dir: string, names: readonly string[], end = names.length): string {
  let path = dir;
  for (let i = 0; i < end; i++) path = joinPath(path, names[i]!);
  return path;
}

/** True when `path` is `dir` itself or lies beneath it (both canonical, as realpath returns them). */
export function isInside(path: string, dir: string): boolean {
  if (path === dir) return true;
  if (path.length <= dir.length || !path.startsWith(dir)) return false;
  const sep = separatorOf(dir);
  return dir.endsWith(sep) || path[dir.length] === sep;
}

/** The last component of a path. */
export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  const i = separatorOf(path) === '\\' ? Math.max(slash, path.lastIndexOf('\\')) : slash;
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * The extension of a file name, like Rust's `Path::extension`: the text after the last '.', unless the name has
 * no '.' or its only '.' is the leading one (`.dotfile` has none; `dot.name` has `name`; `name.` has '').
 */
export function extensionOf(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i <= 0 ? undefined : name.slice(i + 1);
}

/** A decoded request segment that may name a directory entry: no separator and no NUL (they arrive from %2F, %5C, %00). */
export function isUsableSegment(segment: string): boolean {
  return (
    !segment.includes('/') && !segment.includes('\\') && !segment.includes('\0') && segment !== '.' && segment !== '..'
  );
}
