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
