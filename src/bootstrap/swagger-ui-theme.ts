/**
 * Swagger UI at /docs made to pass axe's serious checks (test/console/docs-axe-browser.e2e-spec.ts): its method
 * badges, version stamps, links and greyed text take darker shades of their own colours (4.5:1 against white
 * text or their background; a code sample's numbers a lighter one on its dark background), and the selects it
 * leaves without a name (the server, a response's examples) are named as they appear (SWAGGER_UI_JS). Deep links
 * are off in the options, so an operation's summary button holds no link inside it.
 */
export const SWAGGER_UI_CSS = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17764a; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5400; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b3261e; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0e7561; }
.swagger-ui .opblock.opblock-head .opblock-summary-method,
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #5b2a99; }
.swagger-ui .info .title small { background: #4a5360; }
.swagger-ui .info .title small.version-stamp { background: #3b6e00; }
.swagger-ui .info a, .swagger-ui a.nostyle, .swagger-ui .info .link { color: #0b57d0; }
.swagger-ui .btn.authorize { color: #17764a; border-color: #17764a; }
.swagger-ui .btn.authorize svg { fill: #17764a; }
.swagger-ui table.headers .header-example, .swagger-ui .parameter__in, .swagger-ui .prop-format { color: #4a5360; }
.swagger-ui .microlight span[style*="211, 99, 99"] { color: #f28b82 !important; }
`;

/**
 * Names Swagger UI's unnamed selects, and makes its scrolling code samples reachable by keyboard, as they are
 * rendered (it draws them, and redraws, after the page loads).
 */
export const SWAGGER_UI_JS = `
new MutationObserver(() => {
  for (const [selector, name] of [['#servers', 'Server'], ['select.examples-select-element', 'Example']]) {
    document.querySelectorAll(selector + ':not([aria-label])').forEach((s) => s.setAttribute('aria-label', name));
  }
  document.querySelectorAll('pre.microlight:not([tabindex])').forEach((pre) => pre.setAttribute('tabindex', '0'));
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
`;
