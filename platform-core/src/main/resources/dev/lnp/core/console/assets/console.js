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
document.querySelectorAll('.board li.card[data-move]').forEach(function (card) {
  var select = card.querySelector('form.move select');
  if (!select) return;
  card.draggable = true;
  card.addEventListener('dragstart', function (event) {
    event.dataTransfer.setData('text/plain', select.id);
  });
});
document.querySelectorAll('.board .lane').forEach(function (lane) {
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
