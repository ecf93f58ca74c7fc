// Load-time checks on the files rules point at, so a broken rule fails at load rather than on a request: a respond file must exist (a directory
// needs an index), and a .json / .json5 target must parse. The checks are pure over a RespondFileStatus,
// which read.ts gathers from disk and `set rule` may supply any other way.
import { Json5Error, json5ToJson } from '../files/json5.js';
import { badDelayLines } from '../files/stream-file.js';
import { JsonSyntaxError, parseJson } from '../shared/json.js';
import { lineColumnAt } from '../shared/position.js';
import { report, type DecodeContext, type KeyPath } from './decode.js';
import { MESSAGES } from './messages.js';
import { extensionOf } from './read.js';

export type RespondFileStatus =
  | { readonly kind: 'missing' }
  | { readonly kind: 'dir_without_index' }
  | { readonly kind: 'unreadable'; readonly path: string; readonly reason: string }
  /** `path` is the file that would be served (a directory's index); `text` is present for .json / .json5 and a small .sse */
  | { readonly kind: 'file'; readonly path: string; readonly text?: string };

/** A rule's respond.file_path, remembered by the decoder for checking once file facts are known. */
export interface RespondFileRef {
  /** 0-based rule index */
  readonly rule: number;
  /** as written */
  readonly entry: string;
  /** absolute */
  readonly path: string;
  /** offset of the value in the rule-set file */
  readonly offset: number;
  readonly keyPath: KeyPath;
  /** `template_file`: the content is a template, so a `.json` target is checked only once rendered */
  readonly template?: boolean;
}

/** A directory the rule set needs (prefix.respond_dir). */
export interface DirRef {
  readonly entry: string;
  readonly path: string;
  readonly offset: number;
  readonly keyPath: KeyPath;
}

export function checkRespondFile(ref: RespondFileRef, status: RespondFileStatus, ctx: DecodeContext): void {
  const rule = ref.rule + 1;
  switch (status.kind) {
    case 'missing':
      report(ctx, 'file_not_found', MESSAGES.respondFileMissing(rule, ref.entry), ref.offset, ref.keyPath);
      return;
    case 'dir_without_index':
      report(ctx, 'file_not_found', MESSAGES.respondDirNoIndex(rule, ref.entry), ref.offset, ref.keyPath);
      return;
    case 'unreadable':
      report(
        ctx,
        'file_unreadable',
        MESSAGES.respondFileUnreadable(rule, ref.entry, status.reason),
        ref.offset,
        ref.keyPath,
      );
      return;
    case 'file': {
      if (status.text === undefined || ref.template === true) return;
      if (extensionOf(status.path) === '.sse') {
        for (const bad of badDelayLines(status.text))
          report(
            ctx,
            'invalid_value',
            MESSAGES.streamDelayInvalid(rule, ref.entry, bad.line, bad.text),
            ref.offset,
            ref.keyPath,
          );
        return;
      }
      const reason = jsonProblem(status.text, extensionOf(status.path) === '.json5');
      if (reason !== undefined)
        report(
          ctx,
          'invalid_json_file',
          MESSAGES.respondFileInvalidJson(rule, ref.entry, reason),
          ref.offset,
          ref.keyPath,
        );
      return;
    }
  }
}

export function checkDir(ref: DirRef, isDir: boolean, ctx: DecodeContext): void {
  if (!isDir) report(ctx, 'file_not_found', MESSAGES.respondDirMissing(ref.entry), ref.offset, ref.keyPath);
}

/** A .json5 file is checked by the transcoder that serves it (files/json5.ts): what loads is what is served. */
function jsonProblem(text: string, json5: boolean): string | undefined {
  try {
    if (json5) json5ToJson(text);
    else parseJson(text);
    return undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof Json5Error) return jsonPosition(text, e);
    throw e;
  }
}

/** "unexpected character 'x' at offset 7" → "unexpected character 'x' at line 1 column 8" */
function jsonPosition(text: string, e: JsonSyntaxError | Json5Error): string {
  const { line, column } = lineColumnAt(text, e.offset);
  return e.message.replace(/ at offset \d+$/, '') + ` at line ${line} column ${column}`;
}
