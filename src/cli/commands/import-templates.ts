// A source's templates (WireMock's response-template transformer) are compiled before anything is written: a rule
// whose body or header does not compile as a template of its dialect keeps its text as written, not templated, and
// the summary says so, so an import never writes a rule set the loader refuses. A helper mock does not know in a
// Mockoon template renders empty, as Mockoon renders a helper it does not know: the import writes the template
// without it (so every other helper still renders) and names it.
import type { SourceImport, SourceRule } from '../../import/plan.js';
import { compileTemplate, loadEngine } from '../../templates/index.js';

const decoder = new TextDecoder('utf-8', { fatal: false });

export async function checkTemplates(imp: SourceImport): Promise<SourceImport> {
  const templated = (r: SourceRule): boolean => r.template === true || r.template === 'wiremock';
  if (!imp.rules.some(templated)) return imp;
  const engine = await loadEngine();
  const leftOut = [...imp.leftOut];
  const rules = imp.rules.map((r): SourceRule => {
    if (!templated(r)) return r;
    const sources: [string, 'text' | 'json' | 'header'][] = r.respondHeaders.map(([, v]) => [v, 'header']);
    if (r.body.kind === 'text') sources.push([r.body.text, 'text']);
    else if (r.body.kind === 'file')
      sources.push([
        typeof r.body.data === 'string' ? r.body.data : decoder.decode(r.body.data),
        r.body.ext === 'json' ? 'json' : 'text',
      ]);
    let current = r;
    const dialect = r.template === 'wiremock' ? 'wiremock' : 'mock';
    for (const [given, kind] of sources) {
      let source = given;
      let c = compileTemplate(engine, source, kind, dialect);
      for (let n = 0; !c.ok && imp.format === 'mockoon' && n < MAX_UNKNOWN; n++) {
        const name = /^unknown (?:block )?helper `([^`]+)`/.exec(c.error.message)?.[1];
        if (name === undefined) break;
        const without = withoutHelper(source, name);
        if (without === source) break;
        leftOut.push({
          place: r.place,
          what: `helper \`${name}\``,
          reason: 'not a helper mock knows: rendered empty, as Mockoon renders a helper it does not know',
        });
        source = without;
        c = compileTemplate(engine, source, kind, dialect);
      }
      if (c.ok && source !== given) current = replaced(current, given, source);
      if (!c.ok) {
        leftOut.push({
          place: r.place,
          what: 'response.transformers',
          reason: `the template does not compile here (${c.error.message}); served as written`,
        });
        const { template: _template, ...plain } = r;
        return plain;
      }
    }
    return current;
  });
  return { ...imp, rules, leftOut };
}

/** the most unknown helpers one template may drop before it is served as written */
const MAX_UNKNOWN = 32;

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The template without the expressions calling `name`: its blocks, its `{{…}}` and its `(…)` (as `''`). */
function withoutHelper(source: string, name: string): string {
  const n = escapeRe(name);
  return source
    .replace(new RegExp(`\\{\\{~?#${n}(?:\\s[^}]*)?~?\\}\\}[\\s\\S]*?\\{\\{~?/${n}~?\\}\\}`, 'g'), '')
    .replace(new RegExp(`\\{\\{\\{?~?${n}(?:\\s[^}]*)?~?\\}?\\}\\}`, 'g'), '')
    .replace(new RegExp(`\\(${n}(?:\\s[^()]*)?\\)`, 'g'), "''");
}

/** the rule with one template text (its body or a header's value) replaced */
function replaced(r: SourceRule, from: string, to: string): SourceRule {
  const respondHeaders = r.respondHeaders.map(([k, v]) => [k, v === from ? to : v] as const);
  const body =
    r.body.kind === 'text' && r.body.text === from
      ? { ...r.body, text: to }
      : r.body.kind === 'file' && r.body.data === from
        ? { ...r.body, data: to }
        : r.body;
  return { ...r, respondHeaders, body };
}
