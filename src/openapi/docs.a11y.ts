/**
 * What /docs adds to Swagger UI so that the reference passes axe with no serious or critical
 * violation (test/openapi/docs.browser.test.ts): Swagger UI's colours, darkened to at least 4.5:1,
 * and names for the controls it leaves without one. Served by this service, like the rest of the page.
 */

/** Served as /docs/a11y.css, after swagger-ui.css. Each pair is at least 4.5:1. */
export const ACCESSIBLE_CSS = `/* The method badges: white on a darker shade of each colour. */
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f6bb8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #187a4c; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #a65d00; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f7a66; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c81f1f; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #7d3fb0; }
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #0d5aa7; }
/* The version badges beside the title. */
.swagger-ui .info .title small { background: #5a606b; }
.swagger-ui .info .title small.version-stamp { background-color: #4b6b00; }
/* Links, buttons and small print. */
.swagger-ui .info a, .swagger-ui .scopes h2 a { color: #1d5fa6; }
.swagger-ui .btn.authorize { border-color: #187a4c; color: #187a4c; }
.swagger-ui .btn.authorize svg { color: #187a4c; fill: #187a4c; }
.swagger-ui .btn.execute, .swagger-ui .btn.execute:hover, .swagger-ui .btn.execute:focus {
  background-color: #1d5fa6; border-color: #1d5fa6; color: #fff; transition: none;
}
.swagger-ui .btn.cancel { border-color: #c81f1f; color: #c81f1f; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #555; }
.swagger-ui .parameter__in, .swagger-ui .parameter__extension { color: #555; }
.swagger-ui .download-contents { background: #4d525c; }
/* A name for screen readers only. */
.swagger-ui .visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
`;

/**
 * The start of /docs/init.js. A Swagger UI plugin for what its components let a wrapper change, and an
 * observer for the rest: Swagger UI renders these controls again as operations open and close.
 */
export const ACCESSIBLE_SCRIPT = `'use strict';

function AccessibleMarkup(system) {
  var h = system.React.createElement;
  return {
    wrapComponents: {
      // An operation's summary is a button: a link inside it is a control inside a control. The
      // address still follows the operation that is open (deepLinking); only the nested link goes.
      DeepLink: function (Original) {
        return function (props) {
          return h(Original, Object.assign({}, props, { enabled: false }));
        };
      },
      // Its select sits in an empty label: this one names it.
      Servers: function (Original) {
        return function (props) {
          return h(
            system.React.Fragment,
            null,
            h('label', { htmlFor: 'servers', className: 'visually-hidden' }, 'Server'),
            h(Original, props),
          );
        };
      },
    },
  };
}

/** Controls Swagger UI renders without a name, and the name each gets. */
var UNNAMED = [
  ['.dialog-ux .close-modal', function () { return 'Close'; }],
  ['textarea.body-param__text', function () { return 'Request body'; }],
  ['tr[data-param-name] select', function (el) { return el.closest('tr').getAttribute('data-param-name'); }],
];

function nameControls(root) {
  UNNAMED.forEach(function (entry) {
    root.querySelectorAll(entry[0] + ':not([aria-label])').forEach(function (el) {
      el.setAttribute('aria-label', entry[1](el));
    });
  });
  // Buttons labelled with other words than they show ("Authorize" as "Apply credentials"): the
  // name begins with what is shown, so speech input finds them.
  root.querySelectorAll('.auth-btn-wrapper button[aria-label]').forEach(function (button) {
    var shown = button.textContent.trim();
    var label = button.getAttribute('aria-label');
    if (shown && label.toLowerCase().indexOf(shown.toLowerCase()) !== 0) {
      button.setAttribute('aria-label', shown + ' (' + label.toLowerCase() + ')');
    }
  });
}

window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  new MutationObserver(function () {
    nameControls(root);
  }).observe(root, { childList: true, subtree: true });
});
`;
