// A source's templates (WireMock's response-template transformer) are compiled before anything is written: a rule
// whose body or header does not compile as a template of its dialect keeps its text as written, not templated, and the
// summary says so, so an import never writes a rule set the loader refuses.
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
    for (const [source, kind] of sources) {
      const c = compileTemplate(engine, source, kind, r.template === 'wiremock' ? 'wiremock' : 'mock');
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
    return r;
  });
  return { ...imp, rules, leftOut };
}
