// The console works without script; this only adds the key's copy button.
document.addEventListener('click', function (event) {
  var button = event.target.closest('button[data-copy]');
  if (!button) { return; }
  var field = document.getElementById(button.getAttribute('data-copy'));
  var status = document.getElementById('copy-status');
  var done = function (message) { if (status) { status.textContent = message; } };
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(function () { done('Copied to the clipboard.'); },
      function () { done(document.execCommand('copy') ? 'Copied to the clipboard.' : 'Select the key and copy it.'); });
  } else {
    done(document.execCommand('copy') ? 'Copied to the clipboard.' : 'Select the key and copy it.');
  }
});

// Boards: a card dragged to another lane submits the card's own "Move to" form with that lane, the same request
// the form sends without JavaScript.
function enhanceBoards(root) {
  root.querySelectorAll('.board li.card[data-move]').forEach(function (card) {
    var select = card.querySelector('form.move select');
    if (!select) return;
    card.draggable = true;
    card.addEventListener('dragstart', function (event) {
      event.dataTransfer.setData('text/plain', select.id);
    });
  });
  root.querySelectorAll('.board .lane').forEach(function (lane) {
    lane.addEventListener('dragover', function (event) { event.preventDefault(); });
    lane.addEventListener('drop', function (event) {
      event.preventDefault();
      var select = document.getElementById(event.dataTransfer.getData('text/plain'));
      var key = lane.getAttribute('data-lane');
      if (!select || !Array.prototype.some.call(select.options, function (o) { return o.value === key; })) return;
      select.value = key;
      select.form.submit();
    });
  });
}
enhanceBoards(document);

// Pages that follow the workspace's events: when the server says something changed, the page's content is
// fetched again and swapped in, unless the person is typing in it; then the status line says so instead.
(function () {
  var status = document.querySelector('[data-live]');
  if (!status || !window.EventSource) return;
  var main = document.querySelector('main');
  var waiting = null;
  function typing() {
    var active = document.activeElement;
    return active && main.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  }
  function refresh() {
    waiting = null;
    if (typing()) {
      status.textContent = 'This page has changed. Reload it to see the changes.';
      return;
    }
    fetch(window.location.href, {credentials: 'same-origin'}).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (html === null) return;
      var fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
      if (!fresh) return;
      main.innerHTML = fresh.innerHTML;
      enhanceBoards(main);
      status = main.querySelector('[data-live]') || status;
      status.textContent = 'Updated just now.';
    });
  }
  new EventSource(status.getAttribute('data-live')).addEventListener('changed', function () {
    if (!waiting) waiting = setTimeout(refresh, 300);
  });
})();

// The application's search box: "/" focuses it (unless the person is typing in a field), and while typing the
// search page's own hits are shown as suggestions (a listbox the arrow keys move through). Without script, the box
// is the plain GET form to /app/search.
(function () {
  var input = document.getElementById('app-search-q');
  if (!input) return;
  var form = input.form;
  var list = document.createElement('ul');
  list.id = 'app-search-suggestions';
  list.className = 'suggestions';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Suggestions');
  list.hidden = true;
  var status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  form.appendChild(list);
  form.appendChild(status);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  var active = -1, timer = null, asked = null;

  document.addEventListener('keydown', function (event) {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    event.preventDefault();
    input.focus();
    input.select();
  });

  function options() { return list.querySelectorAll('[role="option"]'); }
  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }
  function mark(index) {
    var all = options();
    if (!all.length) return;
    active = (index + all.length) % all.length;
    all.forEach(function (option, i) { option.setAttribute('aria-selected', i === active ? 'true' : 'false'); });
    input.setAttribute('aria-activedescendant', all[active].id);
    all[active].scrollIntoView({block: 'nearest'});
  }
  function option(id, kind, title, subtitle, href) {
    var li = document.createElement('li');
    li.id = id;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', 'false');
    li.setAttribute('data-href', href);
    if (kind) {
      var k = document.createElement('span');
      k.className = 'kind';
      k.textContent = kind;
      li.appendChild(k);
    }
    li.appendChild(document.createTextNode(title));
    if (subtitle) {
      var s = document.createElement('span');
      s.className = 'sub';
      s.textContent = subtitle;
      li.appendChild(s);
    }
    li.addEventListener('mousedown', function (event) { event.preventDefault(); });
    li.addEventListener('click', function () { window.location.href = href; });
    return li;
  }
  function show(text, html) {
    var page = new DOMParser().parseFromString(html, 'text/html');
    var hits = page.querySelectorAll('#search-results .hits a');
    list.textContent = '';
    hits.forEach(function (a, i) {
      var sub = a.parentNode.querySelector('.muted');
      list.appendChild(option('suggestion-' + i, a.getAttribute('data-kind'), a.textContent,
        sub ? sub.textContent : '', a.getAttribute('href')));
    });
    var all = option('suggestion-all', '', hits.length ? 'All results for “' + text + '”' : 'Nothing found. Search anyway',
      '', form.action + '?q=' + encodeURIComponent(text));
    all.classList.add('all');
    list.appendChild(all);
    status.textContent = hits.length ? hits.length + ' suggestions; use the arrow keys.' : 'Nothing found.';
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    active = -1;
  }
  function suggest() {
    timer = null;
    var text = input.value.trim();
    if (text === asked) return;
    asked = text;
    if (!text) { close(); return; }
    fetch(form.action + '?q=' + encodeURIComponent(text), {credentials: 'same-origin'}).then(function (response) {
      return response.text();
    }).then(function (html) {
      if (input.value.trim() === text && document.activeElement === input) show(text, html);
    }).catch(function () { /* the form still searches on Enter */ });
  }
  input.addEventListener('input', function () {
    if (timer) clearTimeout(timer);
    timer = setTimeout(suggest, 200);
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (list.hidden) { asked = null; suggest(); return; }
      event.preventDefault();
      mark(active + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      close();
    } else if (event.key === 'Enter' && !list.hidden && active >= 0) {
      event.preventDefault();
      window.location.href = options()[active].getAttribute('data-href');
    }
  });
  input.addEventListener('blur', function () { setTimeout(close, 150); });
})();
