import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffLines, setRuleResult, setRuleText, unifiedDiff, type SetRuleView } from './view.js';

const ADDED: SetRuleView = {
  dryRun: false,
  ruleSet: './mock-rule-set.toml',
  ruleIndex: 1,
  added: true,
  changes: [
    { kind: 'Added', target: 'rule set `./mock-rule-set.toml`, rule #2', summary: 'added rule #2 in rule set #1' },
  ],
  files: [{ abs: '/w/mock-rule-set.toml', shown: './mock-rule-set.toml', before: 'a\n', after: 'a\nb\n' }],
  changedFiles: ['./mock-rule-set.toml'],
};

describe('setRuleText', () => {
  const cases: readonly { name: string; view: SetRuleView; text: string }[] = [
    {
      name: 'applied add',
      view: ADDED,
      text: 'Applied:\n  rule set: ./mock-rule-set.toml (new rule)\n  Added: rule set `./mock-rule-set.toml`, rule #2 \u2014 added rule #2 in rule set #1\n',
    },
    {
      name: 'applied update',
      view: {
        ...ADDED,
        added: false,
        ruleIndex: 0,
        changes: [
          {
            kind: 'Updated',
            target: 'rule set `./mock-rule-set.toml`, rule #1',
            summary: 'rule #1 in rule set #1: respond.status',
          },
        ],
      },
      text: 'Applied:\n  rule set: ./mock-rule-set.toml, rule #1\n  Updated: rule set `./mock-rule-set.toml`, rule #1 \u2014 rule #1 in rule set #1: respond.status\n',
    },
    {
      name: 'nothing to change',
      view: { ...ADDED, added: false, ruleIndex: 0, changes: [], files: [], changedFiles: [] },
      text: 'Applied:\n  rule set: ./mock-rule-set.toml, rule #1\n  Unchanged: rule #1 already says that; nothing to write\n',
    },
    {
      name: 'dry run with a diff',
      view: { ...ADDED, dryRun: true, changedFiles: [] },
      text:
        'Would apply (--dry-run, nothing written):\n  rule set: ./mock-rule-set.toml (new rule)\n  Added: rule set `./mock-rule-set.toml`, rule #2 \u2014 added rule #2 in rule set #1\n' +
        '\n--- ./mock-rule-set.toml\n+++ ./mock-rule-set.toml\n@@ -1,1 +1,2 @@\n a\n+b\n',
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(setRuleText(c.view), c.text));
});

describe('setRuleResult', () => {
  it('has the documented envelope fields, in order', () => {
    assert.deepEqual(setRuleResult(ADDED), {
      changed_files: ['./mock-rule-set.toml'],
      changes: [
        { kind: 'Added', summary: 'added rule #2 in rule set #1', target: 'rule set `./mock-rule-set.toml`, rule #2' },
      ],
      dry_run: false,
      requires_reload: true,
      rule_set: './mock-rule-set.toml',
    });
    assert.deepEqual(Object.keys(setRuleResult(ADDED) as object), [
      'changed_files',
      'changes',
      'dry_run',
      'requires_reload',
      'rule_set',
    ]);
  });
  it('keeps the same shape under --dry-run: nothing changed, no reload', () => {
    const r = setRuleResult({ ...ADDED, dryRun: true, changedFiles: [] }) as Record<string, unknown>;
    assert.deepEqual(r['changed_files'], []);
    assert.equal(r['dry_run'], true);
    assert.equal(r['requires_reload'], false);
  });
  it('no change means no reload', () => {
    const r = setRuleResult({ ...ADDED, changes: [], files: [], changedFiles: [] }) as Record<string, unknown>;
    assert.equal(r['requires_reload'], false);
  });
});

describe('diffLines', () => {
  const pairs: readonly [string, string][] = [
    ['', 'a\nb\n'],
    ['a\nb\n', ''],
    ['a\nb\nc\n', 'a\nx\nc\n'],
    ['1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n', '1\n2\nx\n3\n4\n5\n6\n7\n8\ny\n9\n10\n'],
    ['a\nb\na\nb\n', 'b\na\nb\na\n'],
  ];
  for (const [before, after] of pairs) {
    it(`${JSON.stringify(before)} → ${JSON.stringify(after)}`, () => {
      const ops = diffLines(before, after);
      const rebuiltBefore = ops
        .filter((o) => o.tag !== '+')
        .map((o) => o.line + '\n')
        .join('');
      const rebuiltAfter = ops
        .filter((o) => o.tag !== '-')
        .map((o) => o.line + '\n')
        .join('');
      assert.equal(rebuiltBefore, before);
      assert.equal(rebuiltAfter, after);
    });
  }

  it('splits far-apart changes into separate hunks with 3 lines of context', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n') + '\n';
    const after = before.replace('l2\n', 'L2\n').replace('l17\n', 'L17\n');
    const diff = unifiedDiff({ abs: '/f', shown: 'f', before, after });
    assert.deepEqual(
      diff.split('\n').filter((l) => l.startsWith('@@')),
      ['@@ -1,6 +1,6 @@', '@@ -15,6 +15,6 @@'],
    );
  });

  it('a new file diffs against /dev/null', () => {
    assert.equal(
      unifiedDiff({ abs: '/f', shown: './f', before: undefined, after: 'x\n' }),
      '--- /dev/null\n+++ ./f\n@@ -0,0 +1,1 @@\n+x\n',
    );
  });
});
