import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repairRequestLine } from './repair.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');
const at = (packet: Buffer, needle: string): number => packet.indexOf(b(needle));

test('percent-encodes raw UTF-8 in the request-target', () => {
  const cases: { name: string; packet: Buffer; errorAt: (p: Buffer) => number; want: string | undefined }[] = [
    {
      name: 'simple',
      packet: b('GET /café HTTP/1.1\r\nHost: x\r\n\r\n'),
      errorAt: (p) => at(p, 'é'),
      want: 'GET /caf%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n',
    },
    {
      name: 'several segments and a query',
      packet: b('POST /ä/日本?q=ü HTTP/1.1\r\n\r\nbody é'),
      errorAt: (p) => at(p, 'ä'),
      want: 'POST /%C3%A4/%E6%97%A5%E6%9C%AC?q=%C3%BC HTTP/1.1\r\n\r\nbody é',
    },
    {
      name: 'after an earlier request in the same packet',
      packet: b('GET /a HTTP/1.1\r\n\r\nGET /é HTTP/1.1\r\n\r\n'),
      errorAt: (p) => at(p, 'é'),
      want: 'GET /%C3%A9 HTTP/1.1\r\n\r\n',
    },
    {
      name: 'existing escapes kept',
      packet: b('GET /a%20b/é HTTP/1.1\r\n\r\n'),
      errorAt: (p) => at(p, 'é'),
      want: 'GET /a%20b/%C3%A9 HTTP/1.1\r\n\r\n',
    },
    {
      name: 'target at the end of the packet',
      packet: b('GET /é'),
      errorAt: (p) => at(p, 'é'),
      want: 'GET /%C3%A9',
    },
    {
      name: 'error byte not in the target',
      packet: b('GÉT /a HTTP/1.1\r\n\r\n'),
      errorAt: (p) => at(p, 'É'),
      want: undefined,
    },
    { name: 'no method', packet: b(' /é HTTP/1.1\r\n\r\n'), errorAt: (p) => at(p, 'é'), want: undefined },
    {
      name: 'nothing to encode',
      packet: b('GET /a\x01b HTTP/1.1\r\n\r\n'),
      errorAt: (p) => at(p, '\x01'),
      want: undefined,
    },
    { name: 'offset out of range', packet: b('GET /é HTTP/1.1\r\n\r\n'), errorAt: () => 999, want: undefined },
    { name: 'negative offset', packet: b('GET /é HTTP/1.1\r\n\r\n'), errorAt: () => -1, want: undefined },
  ];
  for (const c of cases) {
    const got = repairRequestLine(c.packet, c.errorAt(c.packet));
    assert.equal(got === undefined ? undefined : got.toString('utf8'), c.want, c.name);
  }
});
