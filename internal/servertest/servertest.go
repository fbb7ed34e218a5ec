// Package servertest runs the real burraco binary for end-to-end tests:
// it builds cmd/burraco once per test process, starts `burraco serve` on a
// free port with the environment a test gives, learns the address from the
// log, waits until /readyz answers, and stops, kills or restarts it.
//
// A test package that starts servers builds the binary once when its
// TestMain is
//
//	func TestMain(m *testing.M) { os.Exit(servertest.Run(m)) }
//
// (without it, each test builds its own copy).
package servertest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Time limits of starting and stopping a server.
const (
	StartTimeout = 30 * time.Second // until it listens and /readyz answers 200
	StopTimeout  = 20 * time.Second // until it exits after SIGTERM
)

// Options say how to start a server.
type Options struct {
	// Env is added to the test's environment, from which the server's own
	// settings (DATABASE_URL, JWT_SECRET, LOG_LEVEL, BURRACO_*) are
	// removed first, so that what is not given takes its default. The
	// address is read from the log: keep LOG_LEVEL at info or debug.
	Env []string
	// Dir is the working directory (where the default burraco.db goes);
	// empty means a new temporary directory.
	Dir string
	// Args are more flags of serve, after -addr 127.0.0.1:0.
	Args []string
}

// Server is a running (or stopped) `burraco serve` process.
type Server struct {
	// URL is the base URL, e.g. http://127.0.0.1:43123.
	URL string
	// Dir is the working directory.
	Dir string

	t     testing.TB
	opts  Options
	addr  string // the -addr flag: port 0 at first, the port it got on restarts
	cmd   *exec.Cmd
	logs  *lockedLog
	found chan string
	done  chan struct{}
	err   error // of Wait, once done is closed
}

// Start builds the binary if needed, starts a server and waits until it is
// ready. The test fails if it is not ready within StartTimeout; the server
// is killed when the test ends, and its log shown if the test failed.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := Launch(t, opts)
	s.WaitReady()
	return s
}

// Launch starts a server without waiting for it, so that a test can start
// several at the same moment (e.g. racing to migrate one database); call
// WaitReady on each.
func Launch(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	s := &Server{t: t, opts: opts, Dir: opts.Dir, addr: "127.0.0.1:0"}
	s.launch()
	t.Cleanup(func() {
		if s.running() {
			_ = s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("server log:\n%s", s.logs)
		}
	})
	return s
}

// launch starts the process and the goroutine that reads its log.
func (s *Server) launch() {
	s.t.Helper()
	args := append([]string{"serve", "-addr", s.addr}, s.opts.Args...)
	cmd := exec.Command(Binary(s.t), args...)
	cmd.Dir = s.opts.Dir
	cmd.Env = append(cleanEnv(), s.opts.Env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd, s.logs, s.URL = cmd, &lockedLog{}, ""
	s.found, s.done = make(chan string, 1), make(chan struct{})
	go s.readLog(stderr)
}

var listeningLine = regexp.MustCompile(`msg=listening addr=(\S+)`)

// readLog keeps the log, reports the address it names, and records how the
// process ended.
func (s *Server) readLog(stderr io.Reader) {
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		s.logs.add(sc.Text())
		if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil {
			select {
			case s.found <- m[1]:
			default:
			}
		}
	}
	_, _ = io.Copy(io.Discard, stderr)
	s.err = s.cmd.Wait()
	close(s.done)
}

// WaitReady waits until the server logs its address and /readyz answers
// 200, and sets URL. The test fails if that takes longer than StartTimeout
// or the server exits first.
func (s *Server) WaitReady() {
	s.t.Helper()
	deadline := time.After(StartTimeout)
	select {
	case addr := <-s.found:
		s.URL = "http://" + addr
		s.addr = addr
	case <-s.done:
		s.t.Fatalf("the server exited before listening: %v\n%s", s.err, s.logs)
	case <-deadline:
		s.t.Fatalf("the server did not log its address within %s:\n%s", StartTimeout, s.logs)
	}
	for {
		if ready(s.URL) {
			return
		}
		select {
		case <-s.done:
			s.t.Fatalf("the server exited before it was ready: %v\n%s", s.err, s.logs)
		case <-deadline:
			s.t.Fatalf("/readyz did not answer 200 within %s:\n%s", StartTimeout, s.logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func ready(base string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/readyz", nil)
	if err != nil {
		return false
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// Stop sends SIGTERM and waits for the process to exit, and returns its
// exit code (0 for a graceful stop). The test fails if it does not exit
// within StopTimeout.
func (s *Server) Stop() int {
	s.t.Helper()
	if s.running() {
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
			s.t.Fatal(err)
		}
	}
	select {
	case <-s.done:
	case <-time.After(StopTimeout):
		s.t.Fatalf("the server did not stop within %s of SIGTERM:\n%s", StopTimeout, s.logs)
	}
	return s.cmd.ProcessState.ExitCode()
}

// Kill ends the process at once with SIGKILL, as a crash would, and waits
// until it is gone.
func (s *Server) Kill() {
	s.t.Helper()
	if s.running() {
		_ = s.cmd.Process.Kill()
	}
	<-s.done
}

// Freeze stops the process with SIGSTOP: alive, its sockets open and its
// connections accepted by the kernel, but running nothing (a long GC
// pause, a hung VM) until Thaw. A frozen server left so at the test's end
// is killed.
func (s *Server) Freeze() { s.signal(syscall.SIGSTOP) }

// Thaw resumes a frozen process with SIGCONT.
func (s *Server) Thaw() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.t.Fatal(err)
	}
}

// Restart starts the server again (after Stop or Kill; a running one is
// stopped first) with the same options, working directory and address, and
// waits until it is ready: clients keep their URL.
func (s *Server) Restart() {
	s.t.Helper()
	if s.running() {
		s.Stop()
	}
	s.launch()
	s.WaitReady()
}

// Logs returns what the server has logged so far (on each start, the log
// starts afresh).
func (s *Server) Logs() string { return s.logs.String() }

func (s *Server) running() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// cleanEnv is the test's environment without the server's settings.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "DATABASE_URL" || name == "JWT_SECRET" || name == "LOG_LEVEL" || strings.HasPrefix(name, "BURRACO_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// lockedLog is a log that one goroutine writes and others read.
type lockedLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lockedLog) add(s string) { l.mu.Lock(); defer l.mu.Unlock(); l.lines = append(l.lines, s) }

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// The binary, built once per test process by Run's caller, or per test.
var (
	buildDir  string // set by Run: where the shared binary goes
	buildOnce sync.Once
	buildErr  error
	built     string
)

// Run runs the tests of m with one shared build of the binary, removed when
// they end, and returns m's exit code: call it from TestMain.
func Run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "burraco-servertest-")
	if err != nil {
		panic("servertest: " + err.Error()) // TestMain has no testing.T to fail
	}
	defer os.RemoveAll(dir)
	buildDir = dir
	return m.Run()
}

// BinaryEnv names a binary already built from this checkout that Binary
// returns instead of building one: .ci/test.sh builds cmd/burraco once for
// all the packages that start it (each build links it again, about 4 s of
// CPU with cgo's external linker).
const BinaryEnv = "BURRACO_TEST_BINARY"

// Binary returns the path of cmd/burraco built from the module the test
// runs in: the one BinaryEnv names if it is set, else one build per test
// process under Run, one per test otherwise. Under -short it skips the
// test instead.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() { // make quick: building the binary takes a minute cold
		t.Skip("servertest: the binary is not built under -short")
	}
	if bin := os.Getenv(BinaryEnv); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("servertest: %s: %v", BinaryEnv, err)
		}
		return bin
	}
	if buildDir == "" {
		bin := filepath.Join(t.TempDir(), "burraco")
		if err := build(bin); err != nil {
			t.Fatal(err)
		}
		return bin
	}
	buildOnce.Do(func() {
		built = filepath.Join(buildDir, "burraco")
		buildErr = build(built)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

func build(bin string) error {
	out, err := exec.Command("go", "build", "-o", bin, "github.com/burraco/burraco/cmd/burraco").CombinedOutput()
	if err != nil {
		return errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return nil
}
