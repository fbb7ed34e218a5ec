// Package pages serves the screens people use in a club hall from the same
// binary: the sign-in page, the score pad at the table (/app/pad) and the
// hall display (/app/hall). The issue is 16.
//
// How they are built: plain HTML, one CSS file and vanilla JavaScript ES
// modules under static/, embedded with go:embed and served as they are —
// no build step, no Node.js, nothing from a CDN. The shared modules are
// api.js (fetch with the bearer token, refresh on 401, problem+json turned
// into a sentence by its stable code, Idempotency-Key reused on retries,
// ETag polling), i18n.js (Italian and English) and app.css (phone first).
//
// The rule: the pages talk to the server only through the public HTTP API
// (/api/v1, the routes, tokens and openapi.yaml a third-party frontend
// uses), from the browser. This package imports nothing of api or domain;
// where a page needs something the API lacks, the API gains it, documented
// like the rest. So the pages also prove the contract.
//
// The pages sit behind the same roles as the API: a page itself is public
// (it is only code), and what it shows is what the API lets its user see.
package pages
