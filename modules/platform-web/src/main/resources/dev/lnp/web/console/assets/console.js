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
