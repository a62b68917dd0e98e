// The one-script web pages the Node programs serve (svc-cloud's web app, svc-server's control
// page): their HTML, which loads one script and one style sheet from `assets`, and the headers
// every answer of theirs carries: the page runs only its own script and style and talks only to
// the program that served it (Content-Security-Policy), never inside another site's frame, and
// sends no Referer.

export interface WebPage {
  title: string;
  /** Where app.js and app.css are, ending with "/". */
  assets: string;
  /** What a browser without JavaScript shows. */
  noscript: string;
  /** Images besides the page's own and data: URLs (e.g. "blob:"). */
  moreImages?: string;
  /** Where a form may be sent: "'self'" or "'none'". */
  formAction: "'self'" | "'none'";
}

export function webPageHeaders(page: WebPage): Record<string, string> {
  const images = ["'self'", "data:", ...(page.moreImages ? [page.moreImages] : [])].join(" ");
  return {
    "content-security-policy": `default-src 'self'; script-src 'self'; style-src 'self'; img-src ${images}; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action ${page.formAction}`,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
  };
}

export function webPageHtml(page: WebPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${page.assets}app.css">
<script type="module" src="${page.assets}app.js"></script>
</head>
<body><div id="app"></div><noscript>${page.noscript}</noscript></body>
</html>
`;
}
