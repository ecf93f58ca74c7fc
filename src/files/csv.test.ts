import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CsvError, csvToJson, parseCsv } from './csv.js';

describe('csvToJson', () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    // [what, CSV input, JSON output]
    [
      'the reference example',
      'id,name,score\n1,alice,9.5\n2,"bob, jr",\n',
      '[{"id":"1","name":"alice","score":"9.5"},{"id":"2","name":"bob, jr","score":""}]',
    ],
    ['fields keep column order, not sorted', 'z,a,m\n1,2,3', '[{"z":"1","a":"2","m":"3"}]'],
    ['integer-like headers keep column order', 'b,10,2\nx,y,z', '[{"b":"x","10":"y","2":"z"}]'],
    ['rows keep source order', 'k\n3\n1\n2', '[{"k":"3"},{"k":"1"},{"k":"2"}]'],
    ['every value is a string', 'n,b,z\n42,true,null', '[{"n":"42","b":"true","z":"null"}]'],
    ['CRLF line endings', 'a,b\r\n1,2\r\n3,4\r\n', '[{"a":"1","b":"2"},{"a":"3","b":"4"}]'],
    ['lone CR line endings', 'a,b\r1,2\r', '[{"a":"1","b":"2"}]'],
    ['BOM stripped from the first header', '\ufeffid,v\n1,2', '[{"id":"1","v":"2"}]'],
    ['quoted comma', 'a,b\n"x, y",z', '[{"a":"x, y","b":"z"}]'],
    ['quoted newline (LF and CRLF)', 'a,b\n"line1\nline2","l3\r\nl4"', '[{"a":"line1\\nline2","b":"l3\\r\\nl4"}]'],
    ['doubled quotes', 'a\n"say ""hi"""', '[{"a":"say \\"hi\\""}]'],
    ['quoted empty field', 'a,b\n"",x', '[{"a":"","b":"x"}]'],
    ['quoted header', '"the, key",b\n1,2', '[{"the, key":"1","b":"2"}]'],
    ['a quote inside an unquoted field is literal', 'a\nab"c', '[{"a":"ab\\"c"}]'],
    ['text after a closing quote joins the field', 'a\n"ab"cd', '[{"a":"abcd"}]'],
    ['whitespace is kept', 'a,b\n 1 , 2 ', '[{"a":" 1 ","b":" 2 "}]'],
    ['empty lines are skipped', 'a,b\n\n1,2\n\n\n3,4\n', '[{"a":"1","b":"2"},{"a":"3","b":"4"}]'],
    ['header only', 'a,b,c\n', '[]'],
    ['header only, no newline', 'a,b,c', '[]'],
    ['empty file', '', '[]'],
    ['only newlines', '\n\r\n', '[]'],
    ['only a BOM', '\ufeff', '[]'],
    ['empty cells', 'a,b,c\n,,', '[{"a":"","b":"","c":""}]'],
    ['unicode and escapes in values', 'a\n"tab\there"\n日本', '[{"a":"tab\\there"},{"a":"日本"}]'],
    ['duplicate header: first position, last value', 'a,b,a\n1,2,3', '[{"a":"3","b":"2"}]'],
    ['unterminated quote runs to the end', 'a\n"abc\n', '[{"a":"abc\\n"}]'],
  ];
  for (const [what, input, expected] of cases) {
    it(what, () => {
      const out = csvToJson(input);
      assert.equal(out, expected);
      assert.ok(Array.isArray(JSON.parse(out)));
    });
  }

  const ragged: ReadonlyArray<readonly [string, string, number]> = [
    ['more fields than headers', 'a,b\n1,2\n1,2,3', 3],
    ['fewer fields than headers', 'a,b\n1', 2],
    ['a whitespace-only line is a one-field record', 'a,b\n1,2\n \n', 3],
  ];
  for (const [what, input, record] of ragged) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => csvToJson(input),
        (e: unknown) => e instanceof CsvError && e.record === record,
      );
    });
  }

  it('parseCsv splits records and fields', () => {
    assert.deepEqual(parseCsv('a,"b\nc"\r\nd,e'), [
      ['a', 'b\nc'],
      ['d', 'e'],
    ]);
  });
});
