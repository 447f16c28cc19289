// notifications-live.js: the live gateway's browser client (docs/live.md), an ES module with no dependencies and no
// build step. It connects over WebSocket with a fresh token per attempt, hands each notification to the page once,
// acks by id, and reconnects with full-jitter exponential back-off; the gateway replays what is not acked on every
// connect, so nothing is lost while the page was away.
//
//   import { connect } from './notifications-live.js';
//   const live = connect({
//     url: 'wss://live.example.com/live',
//     token: async () => (await fetch('/live-token')).text(),   // the app's backend mints it (LiveTokens.Mint)
//     onNotification: n => { show(n); live.ack(n.id); },
//     onState: s => console.log(s.state, s),
//   });
//   ...
//   live.close();

const ID = /^[0-9]{1,20}$/;

/**
 * Connects to the gateway and keeps connected until close().
 * @param {object} options
 * @param {string} options.url the gateway's live endpoint, ws:// or wss://…/live (the token is added as ?access_token=)
 * @param {() => Promise<string>} options.token gets a fresh token; called before every connection attempt
 * @param {(n: {id: string, subject: ?string, body: ?string, data: ?object}) => (void|Promise<void>)} options.onNotification
 *   called once per notification id (ids are strings: they exceed a JavaScript number's exact range)
 * @param {(s: {state: string, attempt: number, delayMs?: number, code?: number, reason?: string, error?: unknown}) => void} [options.onState]
 *   'connecting', 'open', 'disconnected' (with delayMs before the next attempt), 'closed'
 * @param {boolean} [options.autoAck] ack each notification once onNotification has returned (or its promise resolved)
 * @param {number} [options.minDelayMs] the back-off's base (500)
 * @param {number} [options.maxDelayMs] the back-off's cap (30000)
 * @param {number} [options.recentIdCapacity] how many recent ids are remembered to show each once (10000)
 * @returns {{ack: (id: string) => void, close: () => void}}
 */
export function connect({ url, token, onNotification, onState = () => {}, autoAck = false,
                          minDelayMs = 500, maxDelayMs = 30000, recentIdCapacity = 10000 }) {
  if (!/^wss?:\/\//.test(url)) throw new TypeError('url must be a ws:// or wss:// URL');
  if (typeof token !== 'function' || typeof onNotification !== 'function') {
    throw new TypeError('token and onNotification must be functions');
  }

  // id -> acked; a Map keeps insertion order, so the first key is the oldest.
  const recent = new Map();
  let socket = null;
  let timer = null;
  let closed = false;
  let attempt = 0;

  const report = (state, details = {}) => {
    try { onState({ state, attempt, ...details }); } catch (e) { console.error('notifications-live: onState threw', e); }
  };

  const remember = (id, acked) => {
    recent.set(id, acked);
    if (recent.size > recentIdCapacity) recent.delete(recent.keys().next().value);
  };

  const send = id => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ack', id }));
  };

  // Acks an id: the gateway deletes its pending copy. An ack made while disconnected is sent again when the gateway
  // replays that notification; acking the id of a push copy the page showed keeps its live copy from being shown.
  const ack = id => {
    if (typeof id !== 'string' || !ID.test(id)) throw new TypeError('a notification id is a string of decimal digits');
    remember(id, true);
    send(id);
  };

  const deliver = async n => {
    if (recent.has(n.id)) {
      if (recent.get(n.id)) send(n.id);   // acked already: the gateway did not get that ack
      return;
    }
    remember(n.id, false);
    try {
      await onNotification({ id: n.id, subject: n.subject ?? null, body: n.body ?? null, data: n.data ?? null });
      if (autoAck) ack(n.id);
    } catch (e) {
      console.error('notifications-live: onNotification threw; not acked', e);
    }
  };

  const retry = details => {
    if (closed) return;
    const ceiling = Math.min(maxDelayMs, minDelayMs * 2 ** Math.min(attempt, 40));
    const delayMs = Math.random() * ceiling;   // full jitter
    attempt += 1;
    report('disconnected', { delayMs, ...details });
    timer = setTimeout(open, delayMs);
  };

  async function open() {
    timer = null;
    if (closed) return;
    report('connecting');
    let jwt;
    try {
      jwt = await token();
    } catch (error) {
      retry({ error });
      return;
    }
    if (closed) return;
    const target = new URL(url);
    target.searchParams.set('access_token', jwt);
    const ws = new WebSocket(target);
    let opened = false;
    socket = ws;
    ws.onopen = () => {
      opened = true;
      attempt = 0;
      report('open');
    };
    ws.onmessage = e => {
      let frame;
      try { frame = JSON.parse(e.data); } catch { return; }
      if (frame && frame.type === 'notification' && typeof frame.id === 'string' && ID.test(frame.id)) deliver(frame);
    };
    ws.onclose = e => {
      if (socket === ws) socket = null;
      if (closed) return;
      // A browser does not show the handshake's status: a refused token (401) and a gateway that is down both end here
      // before 'open' (code 1006). The next attempt asks for a fresh token, which heals an expired one.
      retry({ code: e.code, reason: e.reason, opened });
    };
  }

  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    if (socket) socket.close(1000);
    socket = null;
    report('closed');
  };

  open();
  return { ack, close };
}
