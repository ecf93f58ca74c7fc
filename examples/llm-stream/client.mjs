// A client reading an OpenAI-style chat.completions stream with fetch: `data:` lines, one JSON chunk each,
// until `data: [DONE]`. Point it at the mock with MOCK_URL (default http://localhost:3001).
const base = process.env.MOCK_URL ?? 'http://localhost:3001';

const res = await fetch(`${base}/v1/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-mock' },
  body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
});
if (!res.ok || res.body === null) throw new Error(`HTTP ${res.status}`);

let text = '';
let chunks = 0;
let buffer = '';
const decoder = new TextDecoder();
reading: for await (const bytes of res.body) {
  buffer += decoder.decode(bytes, { stream: true });
  let end;
  // an event ends at a blank line; its `data:` lines carry the payload
  while ((end = buffer.indexOf('\n\n')) >= 0) {
    const event = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    for (const line of event.split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const data = line.slice('data: '.length);
      if (data === '[DONE]') break reading;
      const chunk = JSON.parse(data);
      chunks++;
      const token = chunk.choices[0]?.delta?.content ?? '';
      text += token;
      process.stdout.write(token);
    }
  }
}
process.stdout.write(`\n(${chunks} chunks)\n`);
