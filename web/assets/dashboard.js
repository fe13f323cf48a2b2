/* global document, window, navigator */
// Enhances the dashboard when JavaScript runs: a token in the link's fragment fills its form, and a
// secret shown once gets a copy button. Without it, the same forms work: the token is pasted, the
// secret selected and copied by hand. Text is only ever set as textContent.
'use strict';

(function () {
  function fillFromFragment() {
    const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
    if (!match) return;
    let token;
    try {
      token = decodeURIComponent(match[1]);
    } catch {
      return;
    }
    for (const wrapper of document.querySelectorAll('[data-fragment-token]')) {
      const input = wrapper.querySelector('input[name="token"]');
      if (!input) continue;
      input.value = token;
      if (input.getAttribute('aria-invalid') !== 'true') wrapper.hidden = true;
    }
    // The token leaves the address bar (and the history) once it is in the form.
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }

  function copyButtons() {
    for (const button of document.querySelectorAll('button[data-copy]')) {
      const source = document.getElementById(button.dataset.copy);
      const status = document.getElementById(button.dataset.copy + '-copied');
      if (!source || !navigator.clipboard) continue;
      button.hidden = false;
      button.addEventListener('click', function () {
        navigator.clipboard.writeText(source.value || source.textContent).then(
          function () {
            if (status) status.textContent = 'Copied.';
          },
          function () {
            if (status) status.textContent = 'Could not copy: select the key and copy it.';
          },
        );
      });
    }
  }

  fillFromFragment();
  copyButtons();
})();
