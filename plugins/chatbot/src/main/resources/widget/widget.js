/*
 * The chat widget loader: <script src=".../api/cxo/widget.js" data-key="lnp_..." async></script>.
 * Plain JavaScript, no dependencies. Renders in an open Shadow DOM with a constructed style sheet, so the host
 * page's CSS cannot reach it and a strict host CSP needs no 'unsafe-inline'. Wire contract: docs/chatbot.md.
 */
(() => {
  'use strict';
  const LOADER = '/api/cxo/widget.js';
  const TAG = 'lnp-chat-widget';
  const script = (document.currentScript && document.currentScript.dataset.key) ? document.currentScript
    : [...document.querySelectorAll('script[data-key]')].find((s) => (s.src || '').includes(LOADER));
  const warn = (m) => console.warn('[lnp chat] ' + m);
  if (!script) { warn('no <script src=".../api/cxo/widget.js" data-key="lnp_..."> found'); return; }
  const KEY = script.dataset.key || '';
  if (!KEY.startsWith('lnp_')) { warn('data-key must be a widget key (lnp_...)'); return; }
  const started = (window.__lnpChat = window.__lnpChat || {});
  if (started[KEY]) return;
  started[KEY] = true;
  const srcUrl = new URL(script.src, location.href);
  const BASE = srcUrl.origin + srcUrl.pathname.slice(0, srcUrl.pathname.lastIndexOf(LOADER));
  const enc = encodeURIComponent;
  const state = (s) => script.setAttribute('data-state', s);
  // The page address without query and fragment: those may carry a visitor's private tokens.
  const pageUrl = () => location.origin + location.pathname;

  // sessionStorage only holds the session id and the last stream event id (never a key or a token).
  let hash = 5381;
  for (const c of KEY) hash = ((hash * 33) ^ c.charCodeAt(0)) >>> 0;
  const STORE = 'lnp-chat-' + hash.toString(36);
  const store = {
    get() { try { return JSON.parse(sessionStorage.getItem(STORE)) || {}; } catch (e) { return {}; } },
    set(v) { try { sessionStorage.setItem(STORE, JSON.stringify(Object.assign(store.get(), v))); } catch (e) { /* storage blocked */ } },
  };

  function retryAfter(header, body) {
    if (header) {
      const s = Number(header);
      if (Number.isFinite(s)) return Math.max(1, Math.ceil(s));
      const at = Date.parse(header);
      if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - Date.now()) / 1000));
    }
    if (body && Number.isFinite(body.retry_after)) return Math.max(1, Math.ceil(body.retry_after));
    return 30;
  }

  async function call(method, path, body) {
    const init = { method, credentials: 'omit', mode: 'cors', cache: 'no-store', headers: {} };
    if (body) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    } else {
      init.headers.Accept = 'application/json';
    }
    let res;
    try {
      res = await fetch(BASE + path, init);
    } catch (e) {
      const err = new Error('network');
      err.network = true;
      throw err;
    }
    let data = null;
    try { data = await res.json(); } catch (e) { /* empty or not JSON */ }
    if (!res.ok) {
      const err = new Error((data && (data.detail || data.title)) || 'HTTP ' + res.status);
      err.status = res.status;
      err.code = data && data.code;
      err.data = data;
      if (res.status === 429) err.retryAfter = retryAfter(res.headers.get('Retry-After'), data);
      throw err;
    }
    return data;
  }

  // ---- session -------------------------------------------------------------------------------------------
  let session = null;
  let token = null;
  let tokenExp = 0;
  let widget = null;
  // Whether a person answers now (the widget's office hours), from the handshake and the hand-off's event.
  let avail = {};
  let ui = null;
  // While a person has the conversation (waiting or taken), messages go to them: no "Writing an answer…".
  let handoffOpen = false;
  function handoffState(state) {
    handoffOpen = state === 'waiting' || state === 'taken';
    if (!ui) return;
    if (handoffOpen) ui.handoff(); else ui.handoffClosed();
  }

  // Known visitors: the site's identity token, read again at every handshake so a page renews it by setting the attribute.
  const signIn = (e) => (e.code === 'identity_required' ? 'Please sign in to chat with us.'
    : 'Your sign-in could not be confirmed. Please reload the page, or sign in again.');
  async function handshake() {
    const body = { api_key: KEY, origin: location.origin, url: pageUrl() };
    const saved = store.get().session_id;
    if (saved) body.session_id = saved;
    const identity = script.getAttribute('data-identity-token');
    if (identity) body.identity_token = identity;
    let r;
    try {
      r = await call('POST', '/api/cxo/config', body);
    } catch (e) {
      if (ui && /^identity_/.test(e.code || '')) ui.lock(signIn(e));
      throw e;
    }
    if (ui) ui.lock(null);
    if (saved && r.session_id !== saved) store.set({ last_event_id: null });
    if (session && r.session_id !== session && ui) ui.reset();
    session = r.session_id;
    token = r.token;
    tokenExp = Date.parse(r.token_expires_at) || Date.now() + 5 * 60000;
    widget = r.widget || {};
    avail = r.availability || {};
    store.set({ session_id: session });
    handoffState(r.handoff_state);
  }

  const fresh = () => (Date.now() < tokenExp - 15000 ? Promise.resolve() : handshake());

  async function start(attempt) {
    try {
      await handshake();
    } catch (e) {
      if (/^identity_/.test(e.code || '')) {
        // The site asks for signed-in visitors, or its token was refused: say so instead of hiding the chat.
        warn('chat refused the visitor: ' + e.code + ' ' + e.message);
        widget = {};
        ui = buildUi();
        ui.lock(signIn(e));
        state('signin');
        return;
      }
      state('unavailable');
      if (e.status === 401 || e.status === 403 || e.status === 404 || e.status === 422) {
        warn('chat unavailable on this page: ' + (e.code || e.status) + ' ' + e.message);
        return;
      }
      if (attempt < 4) {
        setTimeout(() => start(attempt + 1), 1000 * 2 ** attempt);
      } else {
        warn('chat unavailable: the platform could not be reached from this page '
          + '(offline, or this origin is not allowed for the widget)');
        addEventListener('online', () => start(0), { once: true });
      }
      return;
    }
    ui = buildUi();
    handoffState(handoffOpen ? 'waiting' : null);
    state('ready');
    try {
      const h = await call('GET', '/api/cxo/history?session_id=' + enc(session) + '&api_key=' + enc(KEY));
      for (const m of h.messages || []) ui.message(m, false);
      ui.csat(h.csat);
    } catch (e) { /* the stream or the next poll brings them */ }
    connect();
  }

  // ---- stream (or polling when streaming is off) ----------------------------------------------------------
  let es = null;
  let streamTimer = 0;
  let streamDelay = 1000;
  let streamFails = 0;
  let pollTimer = 0;

  const handlers = {
    'message.delta': (d) => ui.delta(d),
    'message.completed': (d) => d.message && ui.message(d.message, true),
    'human_agent.message': (d) => d.message && ui.message(d.message, true),
    'run.completed': (d) => ui.runDone(d.run_id, null),
    'run.failed': (d) => ui.runDone(d.run_id, d),
    'handoff.opened': (d) => { if (d.availability) avail = d.availability; handoffState('waiting'); },
    'handoff.closed': () => handoffState('closed'),
    'token.expired': () => {
      closeStream();
      handshake().then(connect, () => scheduleReconnect());
    },
  };

  function closeStream() {
    if (es) es.close();
    es = null;
  }

  function connect() {
    clearTimeout(streamTimer);
    if (!widget.streaming) { poll(); return; }
    closeStream();
    const last = store.get().last_event_id;
    let url = BASE + '/api/cxo/stream?session_id=' + enc(session) + '&token=' + enc(token);
    if (last) url += '&last_event_id=' + enc(last);
    const source = (es = new EventSource(url));
    source.onopen = () => {
      streamDelay = 1000;
      streamFails = 0;
      ui.status('stream', null);
    };
    source.onerror = () => {
      if (source !== es) return;
      closeStream();
      streamFails++;
      if (streamFails > 1) ui.status('stream', navigator.onLine ? 'Connection lost. Reconnecting…' : 'You are offline. The chat reconnects when you are back online.');
      scheduleReconnect();
    };
    for (const name of Object.keys(handlers)) {
      source.addEventListener(name, (ev) => {
        if (ev.lastEventId) store.set({ last_event_id: ev.lastEventId });
        let data;
        try { data = JSON.parse(ev.data || '{}'); } catch (e) { return; }
        handlers[name](data);
      });
    }
  }

  function scheduleReconnect() {
    clearTimeout(streamTimer);
    const delay = Math.min(streamDelay, 30000) * (0.8 + Math.random() * 0.4);
    streamDelay = Math.min(streamDelay * 2, 30000);
    streamTimer = setTimeout(async () => {
      if (!navigator.onLine) return; // the 'online' listener reconnects
      // A stream that keeps failing may be refused for an expired or rotated token: shake hands again.
      if (streamFails > 1 || Date.now() > tokenExp - 30000) {
        try { await handshake(); } catch (e) { scheduleReconnect(); return; }
      }
      connect();
    }, delay);
  }

  async function poll() {
    clearTimeout(pollTimer);
    try {
      const h = await call('GET', '/api/cxo/history?session_id=' + enc(session) + '&api_key=' + enc(KEY));
      for (const m of h.messages || []) ui.message(m, true);
      if ('handoff_state' in h) handoffState(h.handoff_state);
      ui.status('stream', null);
    } catch (e) {
      if (e.network) ui.status('stream', navigator.onLine ? 'Connection lost. Retrying…' : 'You are offline. The chat reconnects when you are back online.');
    }
    pollTimer = setTimeout(poll, ui.waiting() ? 2000 : ui.isOpen() ? 8000 : 30000);
  }

  addEventListener('online', () => {
    if (!ui) return;
    ui.flush();
    streamDelay = 1000;
    if (widget.streaming) connect(); else poll();
  });
  addEventListener('offline', () => ui && ui.status('net', 'You are offline. Messages are sent when you are back online.'));

  // ---- user interface -------------------------------------------------------------------------------------
  function h(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v == null) continue;
      if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v === true ? '' : v);
    }
    for (const kid of kids) if (kid) e.append(kid);
    return e;
  }

  function icon(d) {
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    const p = document.createElementNS(NS, 'path');
    p.setAttribute('d', d);
    svg.append(p);
    return svg;
  }

  function luminance(hex) {
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

  const CSS = `
:host{all:initial!important;display:block!important;position:static!important;visibility:visible!important}
*{box-sizing:border-box}
.root{position:fixed;bottom:16px;right:16px;z-index:2147483000;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1b1f24;text-align:left;display:flex;flex-direction:column;align-items:flex-end;gap:12px}
.root.left{right:auto;left:16px;align-items:flex-start}
button,textarea,input{font:inherit;color:inherit;margin:0}
button{cursor:pointer;border:2px solid transparent;border-radius:8px;padding:8px 14px;min-height:44px}
button:disabled{cursor:not-allowed;opacity:.6}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.launcher{display:flex;align-items:center;gap:8px;background:var(--accent);color:var(--on-accent);border-radius:999px;padding:10px 18px;font-weight:600;box-shadow:0 4px 14px rgba(0,0,0,.25);position:relative}
.launcher svg{width:22px;height:22px;fill:currentColor}
.badge{position:absolute;top:-6px;right:-6px;min-width:22px;height:22px;border-radius:11px;background:#b3261e;color:#fff;font-size:13px;line-height:18px;text-align:center;border:2px solid #fff;padding:0 4px}
.panel{width:min(380px,calc(100vw - 32px));height:min(560px,calc(100vh - 110px));background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.3);display:flex;flex-direction:column;overflow:hidden;border:1px solid #d0d7de}
.panel[hidden],[hidden]{display:none!important}
header{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:8px 8px 8px 16px;background:var(--accent);color:var(--on-accent)}
h2{margin:0;font-size:17px;font-weight:600}
.close{background:transparent;color:inherit;padding:4px 10px;font-size:22px;line-height:1}
header :focus-visible{outline-color:var(--on-accent)}
.log{flex:1;overflow-y:auto;overflow-anchor:none;padding:12px;display:flex;flex-direction:column;gap:8px;background:#f6f8fa}
.msg{max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid #d0d7de;align-self:flex-start}
.msg.visitor{align-self:flex-end;background:var(--accent);color:var(--on-accent);border-color:transparent}
.msg.visitor.queued{border:2px dashed var(--on-accent)}
.msg.human_agent{background:#fff4d6;border:1px solid #d4a72c;border-left:5px solid #9a6700}
.msg.system{align-self:center;background:transparent;border:0;color:#424a53;font-size:13px;text-align:center}
.who{display:block;font-size:12px;font-weight:700;color:#6b4a00;margin-bottom:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.src{margin:6px 0 0;padding-top:6px;border-top:1px solid #d0d7de;font-size:13px;white-space:normal}
.src b{font-size:12px;color:#424a53}
.cites{margin:2px 0 0;padding:0 0 0 18px}
.cites a{color:#0a58ca;text-decoration:underline;overflow-wrap:anywhere}
.rating{display:flex;gap:6px;margin-top:6px;white-space:normal}
.rating button,.scores button{min-height:32px;min-width:40px;padding:2px 8px;background:#fff;border:1px solid #6e7781;color:#1b1f24;font-size:13px;display:inline-flex;align-items:center;gap:4px}
.rating svg{width:16px;height:16px;fill:currentColor}
.rating [aria-pressed=true],.scores [aria-pressed=true]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
.rate{background:transparent;color:inherit;border:1px solid currentColor;padding:2px 10px;min-height:36px;font-size:13px;margin-left:auto}
fieldset{border:0;margin:0;padding:0}
legend{font-size:13px;font-weight:600;padding:0;margin-bottom:4px}
.scores{display:flex;gap:6px}
.csat textarea{min-height:44px}
.note{font-size:12px;display:block;margin-top:2px}
.typing{align-self:flex-start;color:#424a53;font-size:13px;padding:4px 8px}
.status{margin:0;padding:8px 12px;font-size:14px;background:#fff8c5;color:#3b2300;border-top:1px solid #d4a72c}
.status.error{background:#ffebe9;color:#82071e;border-color:#ff8182}
form{display:flex;flex-direction:column;gap:6px;padding:10px 12px 12px;border-top:1px solid #d0d7de;background:#fff}
label{font-size:13px;font-weight:600;color:#1b1f24}
textarea{width:100%;min-height:64px;max-height:160px;resize:vertical;padding:8px;border:1px solid #6e7781;border-radius:8px;background:#fff;color:#1b1f24}
.actions{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}
.mail input,.csat input{flex:1;min-width:0;min-height:44px;padding:8px;border:1px solid #6e7781;border-radius:8px;background:#fff;color:#1b1f24}
.human{background:#fff;border:2px solid #6e7781;color:#1b1f24}
.send{background:var(--accent);color:var(--on-accent);font-weight:600;margin-left:auto}
.leave{background:var(--accent);color:var(--on-accent);font-weight:600}
@media (max-width:480px){.root{left:0;right:0;bottom:0;align-items:flex-end;padding:0 12px 12px}.root.left{align-items:flex-start}
.root.open{top:0;padding:0}.root.open .launcher{display:none}.root.open .panel{width:100%;height:100%;border-radius:0;border:0}}
@media (prefers-reduced-motion:no-preference){.panel{animation:in .18s ease-out}@keyframes in{from{opacity:0;transform:translateY(8px)}}}
@media (forced-colors:active){.launcher,.send,.leave,.msg{border:2px solid CanvasText}}
`;

  function buildUi() {
    const theme = widget.theme || {};
    const accent = /^#[0-9a-f]{6}$/i.test(theme.accent_color || '') ? theme.accent_color : '#1f6feb';
    const lum = luminance(accent);
    const onAccent = contrast(lum, 1) >= 4.5 ? '#ffffff' : '#111111';
    const focus = contrast(lum, 1) >= 3 ? accent : '#111111';
    const name = String(widget.name || 'Chat');

    const host = h(TAG, { 'data-widget': widget.id || '' });
    const root = host.attachShadow({ mode: 'open' });
    if (root.adoptedStyleSheets !== undefined && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.append(h('style', { text: CSS }));
    }

    const badge = h('span', { class: 'badge', hidden: true, 'aria-hidden': 'true' });
    const launcher = h('button', { type: 'button', class: 'launcher', 'aria-label': name + ': open chat', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', 'aria-controls': 'panel' },
      icon('M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z'), h('span', { text: name }), badge);
    const close = h('button', { type: 'button', class: 'close', 'aria-label': 'Close chat', text: '×' });
    // The visitor's satisfaction with the whole conversation (1 to 5, optional comment): a small form under the log.
    const rateChat = h('button', { type: 'button', class: 'rate', 'aria-expanded': 'false', 'aria-controls': 'csat', text: 'Rate chat' });
    const WORDS = ['very dissatisfied', 'dissatisfied', 'neutral', 'satisfied', 'very satisfied'];
    let score = 0;
    const scoreButtons = WORDS.map((w, i) => h('button', { type: 'button', 'aria-pressed': 'false', 'aria-label': (i + 1) + ' of 5, ' + w, text: String(i + 1) }));
    const setScore = (n) => { score = n; if (n) status('csat', null); scoreButtons.forEach((b, i) => b.setAttribute('aria-pressed', String(i + 1 === n))); };
    scoreButtons.forEach((b, i) => b.addEventListener('click', () => setScore(i + 1)));
    const comment = h('textarea', { id: 'csat-comment', rows: '2', maxlength: '2000' });
    const csatForm = h('form', { class: 'csat', id: 'csat', novalidate: true, hidden: true },
      h('fieldset', null, h('legend', { text: 'How satisfied are you with this chat? (1 = very dissatisfied, 5 = very satisfied)' }), h('div', { class: 'scores' }, ...scoreButtons)),
      h('label', { for: 'csat-comment', text: 'Comment (optional)' }), comment,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'leave', text: 'Send rating' })));
    const showCsat = (v) => { csatForm.hidden = !v; rateChat.setAttribute('aria-expanded', String(v)); };
    rateChat.addEventListener('click', () => { showCsat(csatForm.hidden); if (!csatForm.hidden) (scoreButtons[score - 1] || scoreButtons[0]).focus(); });
    csatForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (!score) { status('csat', 'Choose a score from 1 to 5 first.', 'error'); scoreButtons[0].focus(); return; }
      try {
        await fresh();
        await call('POST', '/api/cxo/csat', { token, session_id: session, score, comment: comment.value.trim() || null });
        showCsat(false);
        status('csat', 'Thank you for rating this chat (' + score + ' of 5). You can change it with "Rate chat".');
        rateChat.focus();
      } catch (err) {
        status('csat', err.status === 422 ? err.message : 'Sorry, the rating could not be sent. Please try again.', 'error');
      }
    });
    const typing = h('div', { class: 'typing', hidden: true, text: 'Writing an answer…' });
    const log = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: '0' }, typing);
    const statusEl = h('p', { class: 'status', role: 'status', hidden: true });
    const input = h('textarea', { id: 'input', rows: '2', 'aria-describedby': 'hint', autocomplete: 'off' });
    const send = h('button', { type: 'submit', class: 'send', text: 'Send' });
    const human = h('button', { type: 'button', class: 'human', text: 'Talk to a person', hidden: widget.human_handoff === false });
    const form = h('form', { novalidate: true },
      h('label', { for: 'input', text: 'Your message' }),
      input,
      h('span', { id: 'hint', class: 'sr', text: 'Enter sends, Shift+Enter starts a new line.' }),
      h('div', { class: 'actions' }, human, send));
    // Outside office hours: an address so the team can answer by mail (the hand-off is recorded all the same).
    const mailInput = h('input', { id: 'mail', type: 'email', autocomplete: 'email' });
    const mailForm = h('form', { class: 'mail', novalidate: true, hidden: true },
      h('label', { for: 'mail', text: 'Your e-mail address, so the team can answer by mail' }),
      h('div', { class: 'actions' }, mailInput, h('button', { type: 'submit', class: 'leave', text: 'Leave address' })));
    let mailLeft = false;
    mailForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      const email = mailInput.value.trim();
      if (!email) { status('mail', 'Type your e-mail address first.'); mailInput.focus(); return; }
      try {
        await fresh();
        await call('POST', '/api/cxo/contact', { token, session_id: session, email });
        mailLeft = true;
        mailForm.hidden = true;
        status('mail', 'Thank you. The team will answer you at ' + email + '.');
        input.focus();
      } catch (err) {
        status('mail', err.status === 422 || err.status === 409 ? err.message : 'Sorry, the address could not be sent. Please try again.', 'error');
      }
    });
    const panel = h('div', { class: 'panel', id: 'panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'title', hidden: true },
      h('header', null, h('h2', { id: 'title', text: name }), rateChat, close), log, csatForm, statusEl, mailForm, form);
    const box = h('div', { class: 'root' + (theme.position === 'left' ? ' left' : '') }, panel, launcher);
    box.style.setProperty('--accent', accent);
    box.style.setProperty('--on-accent', onAccent);
    box.style.setProperty('--focus', focus);
    root.append(box);

    let open = false;
    let unread = 0;
    const bubbles = new Map(); // message id -> {el, text, done}
    const locals = []; // visitor messages shown before the server knows them
    const pending = new Set(); // run ids waiting for an answer
    const outbox = [];
    let sending = false;
    let sendDelay = 1000;
    let sendTimer = 0;
    let blockedTimer = 0;
    const statuses = new Map();

    function status(slot, text, kind) {
      if (text) statuses.set(slot, { text, kind }); else statuses.delete(slot);
      const last = [...statuses.values()].pop();
      statusEl.hidden = !last;
      statusEl.textContent = last ? last.text : '';
      statusEl.className = 'status' + (last && last.kind === 'error' ? ' error' : '');
      follow(); // the status line takes room from the log: keep the newest message in view
    }

    // The log follows new messages unless the visitor has scrolled up to read earlier ones.
    const nearBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    // Only the visitor's own scrolling (wheel, touch, keys, scroll bar) unpins it, not layout changes.
    let pinned = true;
    let userAt = 0;
    for (const ev of ['wheel', 'touchmove', 'keydown', 'pointerdown']) log.addEventListener(ev, () => { userAt = Date.now(); }, { passive: true });
    log.addEventListener('scroll', () => { if (Date.now() - userAt < 1500) pinned = nearBottom(); });
    const follow = () => { if (pinned) log.scrollTop = log.scrollHeight; };
    if (window.ResizeObserver) new ResizeObserver(follow).observe(log); // a narrower window, the status line
    function append(el) {
      log.insertBefore(el, typing);
      follow();
    }

    function bubble(role, id) {
      const text = h('span', { class: 'text' });
      const who = role === 'human_agent' ? h('span', { class: 'who', text: 'Team member' })
        : h('span', { class: 'sr', text: role === 'visitor' ? 'You: ' : role === 'system' ? 'Notice: ' : name + ': ' });
      const el = h('div', { class: 'msg ' + (['visitor', 'assistant', 'human_agent', 'system'].includes(role) ? role : 'assistant') }, who, text);
      const b = { el, text, done: false };
      if (id) bubbles.set(id, b);
      append(el);
      return b;
    }

    function citations(b, list) {
      const old = b.el.querySelector('.src');
      if (old) old.remove();
      // Only http(s) links: a javascript: or data: URL in a source never becomes a link.
      const items = (list || []).filter((c) => c && /^https?:\/\//i.test(c.url || ''));
      if (!items.length) return;
      const ul = h('ul', { class: 'cites', 'aria-label': 'Sources' });
      for (const c of items) {
        ul.append(h('li', null, h('a', { href: c.url, target: '_blank', rel: 'noopener noreferrer', text: c.title || c.url })));
      }
      b.el.insertBefore(h('div', { class: 'src' }, h('b', { 'aria-hidden': 'true', text: 'Sources' }), ul), b.rate ? b.rate.el : null);
    }

    const THUMB = 'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6c-.4.4-.6.9-.6 1.4v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z';
    // Thumbs up or down on an answer of the assistant; pressed shows the visitor's choice, which they can change.
    function rateBar(b, id, current) {
      if (!b.rate) {
        const mk = (value, label, flip) => {
          const svg = icon(THUMB);
          if (flip) svg.style.transform = 'rotate(180deg)';
          const btn = h('button', { type: 'button', 'aria-pressed': 'false', 'aria-label': label, title: label }, svg);
          btn.addEventListener('click', async () => {
            const before = b.rate.value;
            b.rate.set(value);
            try {
              await fresh();
              await call('POST', '/api/cxo/rating', { token, session_id: session, message_id: id, rating: value });
              status('rate', value === 'up' ? 'Thank you: marked as helpful.' : 'Thank you: marked as not helpful. The team reads these.');
            } catch (err) {
              b.rate.set(before);
              status('rate', 'Sorry, the rating could not be sent. Please try again.', 'error');
            }
          });
          return btn;
        };
        const up = mk('up', 'Helpful answer', false);
        const down = mk('down', 'Not helpful', true);
        const el = h('div', { class: 'rating', role: 'group', 'aria-label': 'Rate this answer' }, up, down);
        b.rate = { el, value: null, set(v) { this.value = v; up.setAttribute('aria-pressed', String(v === 'up')); down.setAttribute('aria-pressed', String(v === 'down')); } };
        b.el.append(el);
      }
      if (current !== undefined) b.rate.set(current);
    }

    function updateTyping() {
      const streaming = [...bubbles.values()].some((b) => !b.done);
      typing.hidden = !(pending.size && !streaming);
      log.setAttribute('aria-busy', streaming ? 'true' : 'false');
      if (!typing.hidden) follow();
    }

    function notify() {
      if (open) return;
      unread++;
      badge.hidden = false;
      badge.textContent = String(unread);
      launcher.setAttribute('aria-label', name + ': open chat, ' + unread + ' new message' + (unread > 1 ? 's' : ''));
    }

    function message(m, live) {
      if (!m || !m.id) return;
      if (m.role === 'visitor') {
        if (bubbles.has(m.id)) return;
        const i = locals.findIndex((l) => (m.run_id && l.run_id === m.run_id) || (!l.id && l.text === m.text));
        if (i >= 0) {
          locals[i].id = m.id;
          bubbles.set(m.id, locals[i].b);
          locals.splice(i, 1);
          return;
        }
        bubble('visitor', m.id).text.textContent = m.text;
        bubbles.get(m.id).done = true;
        return;
      }
      let b = bubbles.get(m.id);
      if (b && b.done) return;
      if (!b) b = bubble(m.role, m.id);
      b.text.textContent = m.text || '';
      citations(b, m.citations);
      if (m.role === 'assistant' && m.run_id) rateBar(b, m.id, m.rating);
      b.done = true;
      follow();
      if (m.run_id) pending.delete(m.run_id);
      updateTyping();
      if (live && m.role !== 'system') notify();
    }

    function delta(d) {
      if (!d || !d.message_id) return;
      let b = bubbles.get(d.message_id);
      if (b && b.done) return; // a replayed delta of a message already complete
      if (!b) b = bubble('assistant', d.message_id);
      b.text.textContent += d.delta || '';
      updateTyping();
      follow();
    }

    function runDone(runId, failure) {
      pending.delete(runId);
      updateTyping();
      if (failure) status('run', 'Sorry, no answer could be given just now. Please try again.', 'error');
    }

    function handoff() {
      human.disabled = true;
      human.textContent = 'A person has been asked';
      status('run', null); // the platform's own system message tells the visitor what happens next
      mailForm.hidden = mailLeft || avail.person_available !== false;
    }

    function handoffClosed() {
      human.disabled = !!blockedTimer;
      human.textContent = 'Talk to a person';
      mailForm.hidden = true;
    }

    function setOpen(v) {
      open = v;
      panel.hidden = !v;
      box.classList.toggle('open', v);
      launcher.setAttribute('aria-expanded', String(v));
      if (v) {
        unread = 0;
        badge.hidden = true;
        launcher.setAttribute('aria-label', name + ': open chat');
        pinned = true;
        log.scrollTop = log.scrollHeight;
        input.focus();
        if (!widget.streaming) poll();
      } else {
        launcher.focus();
      }
    }

    function blockFor(seconds) {
      clearInterval(blockedTimer);
      let left = seconds;
      const show = () => status('limit', 'You are sending messages quickly. Please wait ' + left + '\u00a0second' + (left === 1 ? '' : 's') + ' before sending again.');
      send.disabled = true;
      human.disabled = true;
      show();
      blockedTimer = setInterval(() => {
        left--;
        if (left > 0) { show(); return; }
        clearInterval(blockedTimer);
        blockedTimer = 0;
        send.disabled = false;
        human.disabled = human.textContent !== 'Talk to a person';
        status('limit', null);
        flush();
      }, 1000);
    }

    function unsend(item) {
      const i = locals.findIndex((l) => l.b === item.b);
      if (i >= 0) locals.splice(i, 1);
      item.b.el.remove();
      if (!input.value) input.value = item.text;
    }

    async function flush() {
      if (sending || !outbox.length || blockedTimer) return;
      clearTimeout(sendTimer);
      sendTimer = 0;
      sending = true;
      const item = outbox[0];
      try {
        let r;
        for (let attempt = 0; ; attempt++) {
          try {
            await fresh();
            r = await call('POST', '/api/cxo/chatbot', {
              token, session_id: session, message: item.text,
              context: { page_url: pageUrl(), request_human: item.human },
            });
            break;
          } catch (e) {
            const tokenIssue = e.status === 401 && (e.code === 'token_expired' || e.code === 'invalid_token');
            if (attempt === 0 && (tokenIssue || e.code === 'session_mismatch')) { tokenExp = 0; continue; }
            throw e;
          }
        }
        outbox.shift();
        item.local.run_id = r.run_id;
        item.b.el.classList.remove('queued');
        if (item.note) item.note.remove();
        if (!handoffOpen) pending.add(r.run_id);
        updateTyping();
        sendDelay = 1000;
        status('net', null);
        status('run', null);
        if (!widget.streaming) { clearTimeout(pollTimer); pollTimer = setTimeout(poll, 1500); }
      } catch (e) {
        if (e.network || (e.status >= 500)) {
          item.b.el.classList.add('queued');
          if (!item.note) item.b.el.append((item.note = h('span', { class: 'note', text: 'Not sent yet: retrying…' })));
          status('net', !navigator.onLine ? 'You are offline. Your message will be sent when you are back online.'
            : 'The chat cannot be reached right now. Your message will be sent automatically.');
          sendTimer = setTimeout(flush, sendDelay);
          sendDelay = Math.min(sendDelay * 2, 30000);
        } else {
          outbox.shift();
          unsend(item);
          if (e.status === 429) {
            blockFor(e.retryAfter || 30);
          } else {
            status('run', e.status === 422 ? 'That message could not be sent: ' + e.message : 'Sorry, the message could not be sent (' + (e.code || e.status) + ').', 'error');
          }
        }
      } finally {
        sending = false;
      }
      if (outbox.length && !sendTimer && !blockedTimer) flush();
    }

    function submit(toHuman) {
      let text = input.value.trim();
      if (!text && toHuman) text = 'I would like to talk to a person.';
      if (!text) { status('run', 'Type a message first.'); input.focus(); return; }
      if (blockedTimer) return;
      status('run', null);
      input.value = '';
      const b = bubble('visitor', null);
      b.text.textContent = text;
      b.done = true;
      const local = { b, text, run_id: null, id: null };
      locals.push(local);
      outbox.push({ text, human: !!toHuman, b, local });
      pinned = true;
      log.scrollTop = log.scrollHeight;
      flush();
      input.focus();
    }

    launcher.addEventListener('click', () => setOpen(!open));
    close.addEventListener('click', () => setOpen(false));
    form.addEventListener('submit', (e) => { e.preventDefault(); submit(false); });
    human.addEventListener('click', () => submit(true));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        if (!send.disabled) submit(false);
      }
    });
    panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.preventDefault(); setOpen(false); return; }
      if (e.key !== 'Tab') return;
      const f = [...panel.querySelectorAll('button,textarea,input,a[href],[tabindex="0"]')]
        .filter((x) => !x.disabled && !x.hidden && x.getClientRects().length);
      if (!f.length) return;
      const first = f[0];
      const last = f[f.length - 1];
      const active = root.activeElement;
      if (e.shiftKey && (active === first || !f.includes(active))) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && (active === last || !f.includes(active))) { e.preventDefault(); first.focus(); }
    });

    if (widget.greeting) {
      const g = bubble('assistant', null);
      g.text.textContent = widget.greeting;
      g.done = true;
    }
    (document.body || document.documentElement).append(host);

    // Sending is off while the visitor's identity is refused; the reason is on the status line.
    let locked = false;
    function lock(text) {
      if (!text && !locked) return;
      locked = !!text;
      input.disabled = send.disabled = locked;
      human.disabled = locked || human.textContent !== 'Talk to a person';
      status('auth', text, 'error');
    }

    return {
      message, delta, runDone, handoff, handoffClosed, status, flush, lock,
      csat(c) { if (c && c.score) { setScore(c.score); comment.value = c.comment || ''; } },
      isOpen: () => open,
      waiting: () => pending.size > 0 || outbox.length > 0,
      reset() {
        for (const b of bubbles.values()) b.el.remove();
        bubbles.clear();
        locals.length = 0;
        pending.clear();
        updateTyping();
      },
    };
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => start(0), { once: true });
  else start(0);
})();
