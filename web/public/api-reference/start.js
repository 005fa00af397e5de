// Starts the API reference (GET /api/docs) on this instance's OpenAPI document. A file, not an inline script,
// so the page's content policy needs no hashes. A reference only: requests are made from the web app or a
// client, never from this page (no "Try it out").
window.SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  supportedSubmitMethods: [],
  validatorUrl: null,
  filter: true,
});
