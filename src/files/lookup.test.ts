import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveFallbackFile, resolveNamedFile } from './lookup.js';
import { memorySource } from './memory-source.js';

const ROOT = '/srv/data';
const NFD_NOEL = 'noe\u0308l';

const files = memorySource(
  {
    '/srv/secret.json': 'secret',
    '/srv/data/index.json': 'root index',
    '/srv/data/plain.json': '{}',
    '/srv/data/users.json': '[]',
    '/srv/data/users/1.json': '{"id":1}',
    '/srv/data/both': 'bare',
    '/srv/data/both.json': '{}',
    '/srv/data/both.json5': '{}',
    '/srv/data/both.csv': 'a',
    '/srv/data/p.json': '{}',
    '/srv/data/p.json5': '{}',
    '/srv/data/q.json5': '{}',
    '/srv/data/q.csv': 'a',
    '/srv/data/only5.json5': '{}',
    '/srv/data/onlycsv.csv': 'a',
    '/srv/data/x.json': '{}',
    '/srv/data/x/index.json': '{}',
    '/srv/data/Dir/Inner/File.json': '{}',
    '/srv/data/Upper.JSON': '{}',
    '/srv/data/café.json': '{}',
    '/srv/data/straße.json': '{}',
    '/srv/data/σοφος.json': '{}',
    [`/srv/data/${NFD_NOEL}.json`]: '{}',
    '/srv/data/a+b.json': '{}',
    '/srv/data/my dir/my file.json': '{}',
    '/srv/data/notes.txt': 'hi',
    '/srv/data/dot.name.json': '{}',
    '/srv/data/.dotfile.json': '{}',
    '/srv/data/.hidden/h.json': '{}',
    '/srv/data/ok.json': '{}',
    '/srv/data/idx/index.html': '<p>',
    '/srv/data/idx2/index.html': '<p>',
    '/srv/data/idx2/index.csv': 'a',
    '/srv/data/idx3/index.csv': 'a',
    '/srv/data/idx3/index.json5': '{}',
    '/srv/data/idx3/index.json': '{}',
    '/srv/data/idx4/index.txt': 'x',
    '/srv/data/idx4/index': 'x',
    '/srv/data/empty/': '',
    '/srv/data/tie/dup.json': '{}',
    '/srv/data/tie/Dup.json': '{}',
    '/srv/data/tie/DUP.json': '{}',
    '/srv/data/tie/b/DIR/f.json': '{}',
    '/srv/data/tie/b/dir/f.json': '{}',
    '/srv/data/tie/b/Dir': 'a file, skipped when a directory is wanted',
    '/srv/data/exactdir/index.json': '{}',
    '/srv/data/EXACTDIR.json': '{}',
    '/srv/data/nodir/': '',
    '/srv/data/NODIR.json': '{}',
  },
  {
    '/srv/data/inlink.json': 'plain.json',
    '/srv/data/outlink.json': '/srv/secret.json',
    '/srv/data/outdir': '/srv',
    '/srv/data/loopback': '../data',
    '/srv/alias': '/srv/data',
    '/srv/data/dangling.json': '/nowhere.json',
  },
);

/** segments as dispatch gives them: split on '/', already decoded */
const seg = (path: string): string[] => path.split('/').slice(1);

describe('resolveFallbackFile', () => {
  const cases: ReadonlyArray<readonly [string, readonly string[], string | undefined]> = [
    // [what, segments, expected path relative to the root, or undefined for 404]
    ['exact file', seg('/plain.json'), 'plain.json'],
    ['root serves its index', [], 'index.json'],
    ['root with a trailing empty segment', seg('/'), 'index.json'],
    ['empty segments are ignored', ['', '', 'plain.json'], 'plain.json'],
    ['trailing slash is ignored', seg('/users/'), 'users.json'],
    ['nested exact', seg('/users/1.json'), 'users/1.json'],
    ['extension-less tries .json', seg('/users/1'), 'users/1.json'],
    ['bare file beats every extension form', seg('/both'), 'both'],
    ['.json beats .json5', seg('/p'), 'p.json'],
    ['.json5 beats .csv', seg('/q'), 'q.json5'],
    ['.json5 alone', seg('/only5'), 'only5.json5'],
    ['.csv alone', seg('/onlycsv'), 'onlycsv.csv'],
    ['a .json file beats a directory of the same name', seg('/x'), 'x.json'],
    ['... also with a trailing slash', seg('/x/'), 'x.json'],
    ['other extensions must be given', seg('/notes'), undefined],
    ['.txt with its extension', seg('/notes.txt'), 'notes.txt'],
    ['a name with an extension gets no forms', seg('/dot.name'), undefined],
    ['a leading-dot name has no extension', seg('/.dotfile'), '.dotfile.json'],
    ['hidden directories are served', seg('/.hidden/h.json'), '.hidden/h.json'],
    ['+ is kept', seg('/a+b'), 'a+b.json'],
    ['+ is not a space', seg('/a b'), undefined],
    ['spaces (decoded %20)', seg('/my dir/my file'), 'my dir/my file.json'],
    ['case folded at every segment', seg('/DIR/INNER/FILE.JSON'), 'Dir/Inner/File.json'],
    ['case folded, extension-less', seg('/dir/inner/file'), 'Dir/Inner/File.json'],
    ['folded extension form', seg('/upper'), 'Upper.JSON'],
    ['accented letters fold (CAFÉ)', seg('/CAFÉ'), 'café.json'],
    ['accented letters, exact', seg('/café'), 'café.json'],
    ['ß folds to ss', seg('/STRASSE'), 'straße.json'],
    ['capital ẞ folds to ss', seg('/STRAẞE.JSON'), 'straße.json'],
    ['final sigma folds', seg('/ΣΟΦΟΣ'), 'σοφος.json'],
    ['no NFC/NFD normalisation', seg('/noël'), undefined],
    ['the NFD name itself', ['', NFD_NOEL], `${NFD_NOEL}.json`],
    ['index.html', seg('/idx'), 'idx/index.html'],
    ['index.csv beats index.html', seg('/idx2'), 'idx2/index.csv'],
    ['index.json beats index.json5 and index.csv', seg('/idx3/'), 'idx3/index.json'],
    ['index.txt and bare index are not index files', seg('/idx4'), undefined],
    ['a directory without an index', seg('/empty'), undefined],
    ['a file cannot be gone through', seg('/ok.json/x'), undefined],
    ['a file cannot be gone through (no extension)', seg('/ok/x'), undefined],
    ['tie: the exact-case name wins', seg('/tie/Dup.json'), 'tie/Dup.json'],
    ['tie: exact-case extension form', seg('/tie/dup'), 'tie/dup.json'],
    ['tie: otherwise the first in sorted order', seg('/tie/dUP.JSON'), 'tie/DUP.json'],
    ['tie: sorted order for extension forms too', seg('/tie/dUp'), 'tie/DUP.json'],
    ['tie: directories, sorted, skipping a file', seg('/tie/b/dIr/f.json'), 'tie/b/DIR/f.json'],
    ['an exact directory beats a folded file', seg('/exactdir'), 'exactdir/index.json'],
    ['an exact directory without index is a 404', seg('/nodir'), undefined],
    ['missing file', seg('/nothing.json'), undefined],
    ['missing directory', seg('/nothing/plain.json'), undefined],
    ['a segment holding / (from %2F)', ['', 'users/1.json'], undefined],
    ['a segment holding \\ (from %5C)', ['', 'users\\1.json'], undefined],
    ['a segment holding NUL (from %00)', ['', 'plain.json\0'], undefined],
    ['a symlink inside pointing inside is served', seg('/inlink.json'), 'inlink.json'],
    ['a symlink pointing outside is refused', seg('/outlink.json'), undefined],
    ['a directory symlink pointing outside is refused', seg('/outdir/secret.json'), undefined],
    ['a path through an outside symlink that lands inside', seg('/outdir/data/plain.json'), 'outdir/data/plain.json'],
    ['a dangling symlink', seg('/dangling'), undefined],
  ];
  for (const [what, segments, expected] of cases) {
    it(what, async () => {
      const got = await resolveFallbackFile(ROOT, segments, files);
      assert.equal(got, expected === undefined ? undefined : `${ROOT}/${expected}`);
    });
  }

  it('a symlinked root is canonicalised before the containment check', async () => {
    assert.equal(await resolveFallbackFile('/srv/alias', seg('/plain.json'), files), '/srv/alias/plain.json');
    assert.equal(await resolveFallbackFile('/srv/alias', seg('/outlink.json'), files), undefined);
  });

  it('a missing root serves nothing', async () => {
    assert.equal(await resolveFallbackFile('/nope', seg('/plain.json'), files), undefined);
    assert.equal(await resolveFallbackFile('/nope', [], files), undefined);
  });

  it('a root of / confines to the whole tree', async () => {
    assert.equal(await resolveFallbackFile('/', seg('/srv/secret.json'), files), '/srv/secret.json');
  });

  it('an exact request costs one stat and no listing', async () => {
    const src = memorySource({ '/r/a/b/c.json': '{}' });
    assert.equal(await resolveFallbackFile('/r', seg('/a/b/c.json'), src), '/r/a/b/c.json');
    assert.deepEqual({ stat: src.calls.stat, list: src.calls.list }, { stat: 1, list: 0 });
  });
});

describe('resolveFallbackFile: costs and a re-pointed root', () => {
  it('an extension-less request costs two stats', async () => {
    const src = memorySource({ '/r/users/1.json': '{}' });
    assert.equal(await resolveFallbackFile('/r', seg('/users/1'), src), '/r/users/1.json');
    assert.equal(src.calls.stat, 2);
  });

  it('the root is canonicalised once, then only when a file falls outside the remembered root', async () => {
    const src = memorySource({ '/v1/a.json': '1', '/v2/a.json': '2', '/v2/b.json': '2' }, { '/srv': '/v1' });
    assert.equal(await resolveFallbackFile('/srv', seg('/a.json'), src), '/srv/a.json');
    const before = src.calls.realpath;
    assert.equal(await resolveFallbackFile('/srv', seg('/a.json'), src), '/srv/a.json');
    assert.equal(src.calls.realpath - before, 1, 'only the file');
    src.link('/srv', '/v2');
    assert.equal(await resolveFallbackFile('/srv', seg('/b.json'), src), '/srv/b.json');
    src.link('/v2/out.json', '/v1/a.json'); // inside the new root, pointing into the old one
    assert.equal(await src.realpath('/srv/out.json'), '/v1/a.json');
    assert.equal(await resolveFallbackFile('/srv', seg('/out.json'), src), undefined);
  });
});

describe('resolveNamedFile', () => {
  const cases: ReadonlyArray<readonly [string, string, string | undefined, string | undefined]> = [
    // [what, path, confineTo, expected]
    ['exact file', '/srv/data/plain.json', undefined, '/srv/data/plain.json'],
    ['extension form', '/srv/data/only5', undefined, '/srv/data/only5.json5'],
    ['.json form beats a directory', '/srv/data/users', undefined, '/srv/data/users.json'],
    ['a directory serves its index', '/srv/data/idx2', undefined, '/srv/data/idx2/index.csv'],
    ['a directory with a trailing slash', '/srv/data/idx/', undefined, '/srv/data/idx/index.html'],
    ['a directory without index', '/srv/data/empty', undefined, undefined],
    ['missing', '/srv/data/nothing', undefined, undefined],
    ['case is not folded', '/srv/data/PLAIN.json', undefined, undefined],
    ['unconfined may leave the directory', '/srv/secret.json', undefined, '/srv/secret.json'],
    ['confined refuses a file outside', '/srv/secret.json', '/srv/data', undefined],
    ['confined refuses a symlink pointing outside', '/srv/data/outlink.json', '/srv/data', undefined],
    ['confined serves a file inside', '/srv/data/users/1', '/srv/data', '/srv/data/users/1.json'],
    ['confined through a symlinked directory', '/srv/alias/plain.json', '/srv/data', '/srv/alias/plain.json'],
    ['confined to a missing directory', '/srv/data/plain.json', '/nope', undefined],
  ];
  for (const [what, path, confineTo, expected] of cases) {
    it(what, async () => {
      assert.equal(await resolveNamedFile(path, files, confineTo), expected);
    });
  }
});
