import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseName, extensionOf, isInside, isUsableSegment, joinPath, joinPaths, separatorOf } from './paths.js';

describe('paths', () => {
  it('separatorOf', () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['/srv/data', '/'],
      ['C:\\data', '\\'],
      ['c:\\', '\\'],
      ['\\\\server\\share', '\\'],
      ['/a\\b', '/'],
      ['C:/data', '/'],
    ];
    for (const [path, sep] of cases) assert.equal(separatorOf(path), sep, path);
  });

  it('joinPath and joinPaths', () => {
    assert.equal(joinPath('/srv', 'a.json'), '/srv/a.json');
    assert.equal(joinPath('/', 'a.json'), '/a.json');
    assert.equal(joinPath('/srv/', 'a.json'), '/srv/a.json');
    assert.equal(joinPath('C:\\data', 'a.json'), 'C:\\data\\a.json');
    assert.equal(joinPaths('/srv', ['a', 'b', 'c.json']), '/srv/a/b/c.json');
    assert.equal(joinPaths('/srv', ['a', 'b', 'c.json'], 2), '/srv/a/b');
    assert.equal(joinPaths('/srv', []), '/srv');
  });

  it('isInside', () => {
    const cases: ReadonlyArray<readonly [string, string, boolean]> = [
      ['/srv/data/a.json', '/srv/data', true],
      ['/srv/data', '/srv/data', true],
      ['/srv/data2/a.json', '/srv/data', false],
      ['/srv/dat', '/srv/data', false],
      ['/srv/secret.json', '/srv/data', false],
      ['/anything', '/', true],
      ['C:\\data\\a.json', 'C:\\data', true],
      ['C:\\data2\\a.json', 'C:\\data', false],
      ['/srv/data\\x', '/srv/data', false], // a backslash is a name character on POSIX
    ];
    for (const [path, dir, inside] of cases) assert.equal(isInside(path, dir), inside, `${path} in ${dir}`);
  });

  it('extensionOf follows Rust Path::extension', () => {
    const cases: ReadonlyArray<readonly [string, string | undefined]> = [
      ['a.json', 'json'],
      ['dot.name', 'name'],
      ['a.b.csv', 'csv'],
      ['.dotfile', undefined],
      ['.dot.json', 'json'],
      ['noext', undefined],
      ['trailing.', ''],
    ];
    for (const [name, ext] of cases) assert.equal(extensionOf(name), ext, name);
  });

  it('baseName', () => {
    assert.equal(baseName('/srv/data/a.json'), 'a.json');
    assert.equal(baseName('C:\\data\\a.json'), 'a.json');
    assert.equal(baseName('/srv/a\\b.json'), 'a\\b.json');
    assert.equal(baseName('name'), 'name');
  });

  it('isUsableSegment', () => {
    for (const ok of ['a.json', 'my file', 'a+b', 'café', '...']) assert.equal(isUsableSegment(ok), true, ok);
    for (const bad of ['a/b', 'a\\b', 'a\0', '.', '..']) assert.equal(isUsableSegment(bad), false, JSON.stringify(bad));
  });
});
