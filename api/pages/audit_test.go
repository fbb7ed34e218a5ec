package pages_test

// What every page is checked for in the browser: axe-core (no serious or
// critical violation), the bytes it transferred (under the budget), and a
// screenshot for docs/screenshots/.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeVersion is the axe-core fetched with npm into the user's cache.
const axeVersion = "4.14.1"

// pageBudget is the most a page may transfer on its first load: its HTML,
// style, scripts and the API answers it asks for.
const pageBudget = 200 << 10

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// axeScript is axe.min.js, installed with npm into the user's cache
// directory on first use. Without npm the test skips (fails under CI=true).
func axeScript(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			axeErr = err
			return
		}
		dir := filepath.Join(cache, "burraco-test", "axe-core-"+axeVersion)
		file := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(file); err != nil {
			if _, err := exec.LookPath("npm"); err != nil {
				axeErr = fmt.Errorf("npm is missing: %w", err)
				return
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				axeErr = err
				return
			}
			cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "axe-core@"+axeVersion)
			if out, err := cmd.CombinedOutput(); err != nil {
				axeErr = fmt.Errorf("npm install axe-core: %v\n%s", err, out)
				return
			}
		}
		b, err := os.ReadFile(file)
		axeSource, axeErr = string(b), err
	})
	if axeErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("axe-core: %v", axeErr)
		}
		t.Skipf("axe-core: %v", axeErr)
	}
	return axeSource
}

// axeViolation is one rule axe found broken.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// checkAxe runs axe-core in the page of ctx; a serious or critical
// violation fails the test, naming the page.
func checkAxe(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	src := axeScript(t)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](src)); err != nil {
		t.Fatalf("%s: injecting axe-core: %v", page, err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: running axe-core: %v", page, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatalf("%s: axe's answer: %v", page, err)
	}
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			var where []string
			for _, n := range v.Nodes {
				where = append(where, fmt.Sprint(n.Target...))
			}
			t.Errorf("%s: axe %s (%s): %s at %s", page, v.ID, v.Impact, v.Help, strings.Join(where, ", "))
		}
	}
}

// transferred is what the page of ctx has transferred since it was opened:
// the document and every resource and API answer (the Resource Timing of
// a same-origin page gives their sizes on the wire).
func transferred(t *testing.T, ctx context.Context) int64 {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`performance.getEntriesByType('navigation')
		.concat(performance.getEntriesByType('resource'))
		.reduce((a, e) => a + (e.transferSize || 0), 0)`))
	if err != nil {
		t.Fatalf("reading the bytes transferred: %v", err)
	}
	return n
}

// checkBudget reports the bytes a page transferred and fails the test
// over the budget.
func checkBudget(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	n := transferred(t, ctx)
	t.Logf("budget: %s transferred %d bytes (%.2f of the %d KB budget)", page, n, float64(n)/pageBudget, pageBudget>>10)
	if n <= 0 {
		t.Errorf("%s: no bytes transferred were measured", page)
	}
	if n > pageBudget {
		t.Errorf("%s transferred %d bytes, over the budget of %d", page, n, pageBudget)
	}
}

// updateScreenshots writes the screenshots into docs/screenshots/ (go test
// ./api/pages -run Browser -screenshots). Without it none is taken: a
// run that threw them away cost make test about 7 core-seconds of PNG
// encoding (api/pages 70 -> 63 under the race detector).
var updateScreenshots = flag.Bool("screenshots", false, "write the pages' screenshots to docs/screenshots/")

// screenshot writes the viewport of ctx to docs/screenshots/name.png under
// -screenshots, and does nothing otherwise.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if !*updateScreenshots {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("..", "..", "docs", "screenshots")
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// inspect is what each page gets: axe, its budget and a screenshot.
func inspect(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	checkAxe(t, ctx, name)
	checkBudget(t, ctx, name)
	screenshot(t, ctx, name)
}
