// Compiling a rule set's response templates at load: a syntax error is reported at its place in the file (the
// position inside the TOML string mapped back), a data root the request does not have (`reqest.path`) is a
// warning with a did-you-mean. The engine is loaded only when a rule set has templates (load.ts awaits it).
import type { TemplateSlot } from '../model/template.js';
import { compileTemplate, fakerIfLoaded, unknownRoots, type Handlebars } from '../templates/index.js';
import { report, type DecodeContext, type KeyPath } from './decode.js';
import { MESSAGES } from './messages.js';
import { indexOfLineColumn, offsetInTomlString } from './toml-string.js';

/** A templated value of a rule, remembered by the decoder for compiling once the engine is loaded. */
export interface TemplateRef {
  readonly slot: TemplateSlot;
  /** 0-based rule index */
  readonly rule: number;
  /** offset of the string value in the rule-set file */
  readonly offset: number;
  readonly keyPath: KeyPath;
  /** a callback's template (docs/callbacks.md): it may also name the answer, `response.…` */
  readonly callback?: true;
}

/** Compile every slot (setting `slot.compiled`); returns whether one uses `faker` (which must then be loaded). */
export function compileTemplateRefs(refs: readonly TemplateRef[], engine: Handlebars, ctx: DecodeContext): boolean {
  let faker = false;
  for (const ref of refs) {
    const r = compileTemplate(engine, ref.slot.source, ref.slot.kind, ref.slot.dialect);
    if (!r.ok) {
      const at = offsetInTomlString(
        ctx.text,
        ref.offset,
        indexOfLineColumn(ref.slot.source, r.error.line, r.error.column),
      );
      report(ctx, 'template_syntax', MESSAGES.templateSyntax(ref.rule + 1, r.error.message), at, ref.keyPath);
      continue;
    }
    ref.slot.compiled = r.value;
    faker ||= r.value.usesFaker;
    const paths = ref.callback === true ? r.value.paths.filter((p) => !p.startsWith('response.')) : r.value.paths;
    for (const u of unknownRoots(paths)) {
      const index = ref.slot.source.indexOf(u.path);
      const at = offsetInTomlString(ctx.text, ref.offset, Math.max(0, index));
      report(ctx, 'template_data', MESSAGES.templateUnknownRoot(u.path), at, ref.keyPath, {
        severity: 'warning',
        ...(u.suggestion !== undefined ? { suggestion: u.suggestion } : {}),
      });
    }
  }
  return faker && fakerIfLoaded() === undefined;
}
