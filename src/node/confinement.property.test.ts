// Property: whatever the request path, the fallback lookup never yields a file outside the root.
// A real temp dir holds a secret file just outside the root, symlinks pointing out (to the file and to the
// parent directory), a symlink inside pointing inside, and a symlinked root.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { createFsSource } from './file-cache/fs-source.js';
import { resolveFallbackFile } from '../files/lookup.js';
import { normaliseSegments } from '../dispatch/snapshot.js';
import { cases } from '../../test/helpers/test-loop.js';

const TOKENS = [
  '',
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '%2e%2e',
  '.%2e',
  '%2f',
  '%2F',
  '%5c',
  '%00',
  '\\',
  '..\\..',
  'root',
  'ROOT',
  'secret',
  'secret.json',
  'SECRET.JSON',
  'Secret',
  'ok',
  'ok.json',
  'sub',
  'SUB',
  'inner',
  'out-link',
  'out-link.json',
  'OUT-LINK.JSON',
  'out-dir',
  'Out-Dir',
  'in-link.json',
  'index',
  'rootlink',
  '..%2fsecret.json',
  '%2e%2e%2fsecret.json',
  'café',
  'CAFÉ',
] as const;

describe('fallback confinement (property)', () => {
  let base = '';
  let root = '';
  let realRoot = '';
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'mock-confine-'));
    root = join(base, 'root');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(base, 'secret.json'), '"secret"');
    await writeFile(join(base, 'index.json'), '"outside index"');
    await writeFile(join(root, 'ok.json'), '{}');
    await writeFile(join(root, 'café.json'), '{}');
    await writeFile(join(root, 'sub', 'inner.json'), '{}');
    await symlink(join(base, 'secret.json'), join(root, 'out-link.json'));
    await symlink(base, join(root, 'out-dir'));
    await symlink(join(root, 'ok.json'), join(root, 'in-link.json'));
    await symlink(root, join(base, 'rootlink'));
    realRoot = await realpath(root);
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const expectInside = async (found: string | undefined): Promise<void> => {
    if (found === undefined) return;
    const real = await realpath(found);
    assert.ok(real.startsWith(realRoot + sep), `${found} resolved to ${real}, outside ${realRoot}`);
  };

  it('arbitrary segment lists never resolve outside the root', async () => {
    const src = createFsSource();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 4 })), { maxLength: 6 }),
        async (segments) => {
          await expectInside(await resolveFallbackFile(root, segments, src));
        },
      ),
      cases(400),
    );
  });

  it('arbitrary raw request paths, decoded and normalised like dispatch, never resolve outside the root', async () => {
    const src = createFsSource();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...TOKENS), { maxLength: 7 }), async (tokens) => {
        await expectInside(await resolveFallbackFile(root, normaliseSegments('/' + tokens.join('/')), src));
      }),
      cases(400),
    );
  });

  it('the fixtures make the property able to fail', async () => {
    const src = createFsSource();
    // Resolving with the parent as root reaches the secret: the same lookup would report it if confinement broke.
    assert.equal(await resolveFallbackFile(base, ['secret.json'], src), join(base, 'secret.json'));
    assert.equal(await resolveFallbackFile(root, ['out-dir', 'secret.json'], src), undefined);
    assert.equal(await resolveFallbackFile(root, ['in-link.json'], src), join(root, 'in-link.json'));
  });
});
