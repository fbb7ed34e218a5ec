package domain

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// keptReads keeps the answers of reads that many callers repeat (the
// lobby, the player list, a profile) while nothing they read has changed,
// as the storage's write marks tell (WriteMarks): the next caller is
// answered from memory, without a query, and the API answers a list with
// the body it encoded for the first (the page's Stamp). A read is kept
// only when no write to its records was under way while it ran, and for at
// most Config.KeptReadsMaxAge: a write the store cannot see (another
// process on a SQLite file, a change made by hand) shows within that time.
//
// A kept answer is shared by every caller: whatever read returns must
// not be changed by its callers.
type keptReads struct {
	marks  WriteMarks // nil: the storage tells nothing, nothing is kept
	maxAge time.Duration
	epoch  string // this process's: no stamp of an earlier run is given again
	mu     sync.Mutex
	m      map[string]keptRead
	puts   uint64
}

type keptRead struct {
	mark  uint64
	at    time.Time
	value any
	stamp string
}

// maxKeptReads bounds the reads kept.
const maxKeptReads = 4096

func newKeptReads(st Storage, maxAge time.Duration) *keptReads {
	marks, _ := st.(WriteMarks)
	return &keptReads{marks: marks, maxAge: maxAge, m: map[string]keptRead{},
		epoch: strconv.FormatInt(time.Now().UnixNano(), 36) + strconv.FormatUint(rand.Uint64(), 36)}
}

// kept answers read's value for key, from memory when it was read since
// the last write to records; else it reads and, when no write to records
// ran meanwhile, keeps it. stamp names the kept value (each value kept
// gets its own, unique to this process's life), or is empty when the
// value was read and not kept. The age is measured on the machine's clock,
// not the services' (which tests stop): it bounds how stale an answer is.
func kept[T any](k *keptReads, key string, records []string, read func() (T, error)) (value T, stamp string, err error) {
	if k == nil || k.marks == nil {
		value, err = read()
		return value, "", err
	}
	mark, ok := k.marks.Mark(records...)
	if !ok {
		value, err = read()
		return value, "", err
	}
	now := time.Now()
	k.mu.Lock()
	e, hit := k.m[key]
	k.mu.Unlock()
	if hit && e.mark == mark && now.Sub(e.at) < k.maxAge {
		return e.value.(T), e.stamp, nil
	}
	if value, err = read(); err != nil {
		return value, "", err
	}
	if after, ok := k.marks.Mark(records...); !ok || after != mark {
		return value, "", nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.m) >= maxKeptReads {
		clear(k.m) // the keys are pages and filters: the old ones are rarely asked again
	}
	k.puts++
	stamp = "k" + k.epoch + "." + strconv.FormatUint(k.puts, 36)
	k.m[key] = keptRead{mark: mark, at: now, value: value, stamp: stamp}
	return value, stamp, nil
}

// keptFresh is kept for a read whose value may also change without its
// mark moving, in ways fresh knows how to follow from memory (a lobby
// page's tables move to newer versions: the page stays the same tables).
// fresh brings the value up to date and says whether it changed it; the
// value it made replaces the kept one, so that the next caller starts from
// it.
func keptFresh[T any](k *keptReads, key string, records []string, read func() (T, error),
	fresh func(T) (T, bool, error)) (T, error) {
	value, stamp, err := kept(k, key, records, read)
	if err != nil {
		return value, err
	}
	newer, changed, err := fresh(value)
	if err != nil || !changed {
		return newer, err
	}
	if stamp != "" {
		k.mu.Lock()
		if e, ok := k.m[key]; ok && e.stamp == stamp {
			e.value = newer
			k.m[key] = e
		}
		k.mu.Unlock()
	}
	return newer, nil
}
