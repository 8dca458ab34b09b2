// The console works without script; this only adds the copy buttons: of a key shown once (an input) and of a
// copyable field's code block (data-copy-status names the live region that confirms it).
document.addEventListener('click', function (event) {
  var button = event.target.closest('button[data-copy]');
  if (!button) { return; }
  var field = document.getElementById(button.getAttribute('data-copy'));
  var status = document.getElementById(button.getAttribute('data-copy-status') || 'copy-status');
  var input = 'value' in field && typeof field.select === 'function';
  var done = function (message) {
    if (!status) { return; }
    // Emptied first, so the same confirmation twice is announced twice.
    status.textContent = '';
    setTimeout(function () { status.textContent = message; }, 50);
  };
  var failed = input ? 'Select the key and copy it.' : 'Select the text and copy it (Ctrl+C).';
  if (input) {
    field.select();
  } else {
    var range = document.createRange();
    range.selectNodeContents(field);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
  }
  var text = input ? field.value : field.textContent;
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { done('Copied to the clipboard.'); },
      function () { done(document.execCommand('copy') ? 'Copied to the clipboard.' : failed); });
  } else {
    done(document.execCommand('copy') ? 'Copied to the clipboard.' : failed);
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
      // The notice of the person's own last action is shown once by the server; the refresh its own event causes
      // must not take it away before it was read.
      var notice = main.querySelector('.card.done');
      var typed = typedIn(main);
      var focused = document.activeElement && main.contains(document.activeElement) ? document.activeElement.id : null;
      main.innerHTML = fresh.innerHTML;
      restoreTyped(main, typed, focused);
      enhanceBoards(main);
      revealChoiceSearches(main);
      if (window.htmx) window.htmx.process(main);
      status = main.querySelector('[data-live]') || status;
      if (notice && !main.querySelector('.card.done')) status.after(notice);
      status.textContent = 'Updated just now.';
    });
  }
  new EventSource(status.getAttribute('data-live')).addEventListener('changed', function () {
    if (!waiting) waiting = setTimeout(refresh, 300);
  });
})();

// The application's search box: "/" focuses it (unless the person is typing in a field). While typing, htmx puts
// the hits of /app/search/suggestions into the list under the box (the layout's hx-* attributes); this makes the
// box an ARIA combobox of that list, which the arrow keys move through and Enter opens. Without script, the box is
// the plain GET form to /app/search.
(function () {
  var input = document.getElementById('app-search-q');
  var list = document.getElementById('app-search-suggestions');
  if (!input || !list) return;
  var status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  input.form.appendChild(status);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  var active = -1;

  document.addEventListener('keydown', function (event) {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    event.preventDefault();
    input.focus();
    input.select();
  });

  function options() { return list.querySelectorAll('[role="option"]'); }
  function open() {
    if (!options().length || document.activeElement !== input) return;
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }
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
  list.addEventListener('htmx:afterSwap', function () {
    active = -1;
    input.removeAttribute('aria-activedescendant');
    var all = list.querySelector('#suggestion-all');
    if (!all) { close(); status.textContent = ''; return; }
    var count = Number(all.getAttribute('data-count'));
    status.textContent = count ? count + ' suggestions; use the arrow keys.' : all.textContent;
    open();
  });
  list.addEventListener('mousedown', function (event) { event.preventDefault(); });
  list.addEventListener('click', function (event) {
    var option = event.target.closest('[role="option"]');
    if (option) window.location.href = option.getAttribute('data-href');
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden) { open(); return; }
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

// A refresh must not take away what the person is typing in a form of the page (a reply under a conversation
// that the visitor just wrote in): the fields they changed keep their values, and the focus stays where it was.
function typedIn(root) {
  var typed = {};
  root.querySelectorAll('form textarea[id], form input[id], form select[id]').forEach(function (field) {
    if (field.type === 'hidden') return;
    var changed = field.type === 'checkbox' ? field.checked !== field.defaultChecked
      : field.tagName === 'SELECT' ? Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; })
      : field.value !== field.defaultValue;
    if (changed) typed[field.id] = field.type === 'checkbox' ? field.checked : field.value;
  });
  return typed;
}

function restoreTyped(root, typed, focused) {
  Object.keys(typed).forEach(function (id) {
    var field = document.getElementById(id);
    if (!field || !root.contains(field)) return;
    if (field.type === 'checkbox') field.checked = typed[id]; else field.value = typed[id];
  });
  var again = focused && document.getElementById(focused);
  if (again) again.focus();
}

// A long choice of records has a search box that narrows its list (htmx asks the server for the matching ones);
// it is hidden without script, where the whole list is there to choose from.
function revealChoiceSearches(root) {
  root.querySelectorAll('[data-choice-search]').forEach(function (box) { box.hidden = false; });
}
revealChoiceSearches(document);

// In a choice's search box, Enter narrows the list at once instead of sending the half-filled form, and the down
// arrow goes on to the narrowed list, as Tab does.
document.addEventListener('keydown', function (event) {
  var box = event.target.closest && event.target.closest('[data-choice-search]');
  if (!box || event.target.tagName !== 'INPUT') return;
  if (event.key === 'Enter') {
    event.preventDefault();
    event.target.dispatchEvent(new Event('search'));
  } else if (event.key === 'ArrowDown') {
    var list = document.getElementById(event.target.getAttribute('aria-controls'));
    if (list) {
      event.preventDefault();
      list.focus();
    }
  }
});
