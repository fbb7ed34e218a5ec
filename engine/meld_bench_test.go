package engine

import "testing"

// meldSink keeps results alive so the compiler cannot drop the calls.
var meldSink Meld

func benchNewMeld(b *testing.B, mr MeldRules, s, wildAs string) {
	cs, as := mcards(s), mcard(wildAs)
	if _, err := NewMeld(mr, cs, as); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		meldSink, _ = NewMeld(mr, cs, as)
	}
}

func BenchmarkNewMeldSequence(b *testing.B) {
	b.Run("clean 3", func(b *testing.B) { benchNewMeld(b, mrFibur, "5H 6H 7H", "") })
	b.Run("joker gap 7", func(b *testing.B) { benchNewMeld(b, mrFibur, "9C 4C 5C JK 7C 8C TC", "") })
	b.Run("natural 2 and wild", func(b *testing.B) { benchNewMeld(b, mrFibur, "3S 2H 2S", "") })
	b.Run("fibur 14", func(b *testing.B) { benchNewMeld(b, mrFibur, mSpades2KA+" JK", "") })
	b.Run("wildAs", func(b *testing.B) { benchNewMeld(b, mrFibur, "9H TH JK", "JH") })
}

func BenchmarkNewMeldSet(b *testing.B) {
	b.Run("clean 4", func(b *testing.B) { benchNewMeld(b, mrFibur, "7H 7H 7D 7C", "") })
	b.Run("8 and wild", func(b *testing.B) { benchNewMeld(b, mrFibur, "9S 9S 9H 9H 9D 9D 9C 9C JK", "") })
}

// BenchmarkNewMeldRejected measures the cost of refusing a meld (move
// generators try many).
func BenchmarkNewMeldRejected(b *testing.B) {
	cs := mcards("KC AC 2C 3C")
	b.ReportAllocs()
	for b.Loop() {
		meldSink, _ = NewMeld(mrFibur, cs, 0)
	}
}

func benchAttach(b *testing.B, mr MeldRules, meld, add string) {
	m, err := LoadMeld(mr, mcards(meld))
	if err != nil {
		b.Fatal(err)
	}
	cs := mcards(add)
	if _, err := m.Attach(mr, cs, 0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		meldSink, _ = m.Attach(mr, cs, 0)
	}
}

func BenchmarkMeldAttach(b *testing.B) {
	b.Run("sequence one card", func(b *testing.B) { benchAttach(b, mrFibur, "4C 5C 6C 7C 8C", "9C") })
	b.Run("sequence wild replaced", func(b *testing.B) { benchAttach(b, mrFibur, "QD 2D AD", "KD TD") })
	b.Run("sequence free wild slides", func(b *testing.B) { benchAttach(b, mrFibur, "2C TC JC", "KC") })
	b.Run("sequence pinella turns natural", func(b *testing.B) { benchAttach(b, mrFibur, "3C 2C 5C 6C 7C 8C", "4C") })
	b.Run("set", func(b *testing.B) { benchAttach(b, mrFibur, "9S 9H 9D", "9C JK") })
}

// BenchmarkMeldAttachLocked measures refusing an attach to an imprisoned
// wild (the costliest refusal: it tries the relaxed reading too).
func BenchmarkMeldAttachLocked(b *testing.B) {
	m, err := LoadMeld(mrFibur, mcards("6C JK 8C"))
	if err != nil {
		b.Fatal(err)
	}
	cs := mcards("TC")
	b.ReportAllocs()
	for b.Loop() {
		meldSink, _ = m.Attach(mrFibur, cs, 0)
	}
}

func BenchmarkLoadMeld(b *testing.B) {
	cs := mcards("3C 2C 5C 6C 7C 8C")
	b.ReportAllocs()
	for b.Loop() {
		meldSink, _ = LoadMeld(mrFibur, cs)
	}
}
