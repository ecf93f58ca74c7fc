// Two people in one room: node client.mjs (with `npx mock` running in this folder).
import { WebSocket } from 'ws';

const room = (name) => new WebSocket(`ws://localhost:3001/ws/rooms/general?name=${name}`);
const ada = room('ada');
const bob = room('bob');
bob.on('message', (m) => console.log('bob got', String(m)));
ada.on('message', (m) => console.log('ada got', String(m)));
await Promise.all([ada, bob].map((s) => new Promise((r) => s.once('open', r))));
ada.send('hello, bob');
ada.send('{"type":"ping"}');
setTimeout(() => {
  ada.send('/leave');
  bob.close();
}, 300);
