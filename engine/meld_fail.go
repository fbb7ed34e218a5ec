package engine

// fail is why a meld was refused. The meld code passes these small values
// around and builds the *RuleError only at the API boundary, so that trying
// arrangements costs no allocation.
type fail uint8

const (
	okay     fail = iota
	failNone      // internal: a reading of the cards that does not exist
	failNotCard
	failShort
	failLong
	failEmpty
	failMixed
	failSuit
	failDup
	failAces
	failOrder
	failGap
	failBothAces
	failNoRoom
	failWildsOnly
	failWildAs
	failNoSets
	failSetRank
	failSetSize
	failCopies
	failBadMeld
	failTooManyWilds
	failWildLocked
)

var failText = [...]struct {
	code Code
	msg  string
}{
	okay:             {"", ""},
	failNone:         {ErrInvalidMeld, "the cards do not make a meld"},
	failNotCard:      {ErrInvalidMeld, "a meld holds something that is not a card"},
	failShort:        {ErrInvalidMeld, "a meld needs at least 3 cards"},
	failLong:         {ErrInvalidMeld, "too many cards for one meld (a sequence has at most 14, a set 9)"},
	failEmpty:        {ErrInvalidMeld, "no cards to attach"},
	failMixed:        {ErrInvalidMeld, "the cards are neither of one suit (sequence) nor of one rank (set)"},
	failSuit:         {ErrInvalidMeld, "a card is not of the sequence's suit"},
	failDup:          {ErrInvalidMeld, "a sequence cannot hold the same card twice"},
	failAces:         {ErrInvalidMeld, "a sequence holds at most two aces, one at each end"},
	failOrder:        {ErrInvalidMeld, "a sequence must be written low to high, each card at its rank's place"},
	failGap:          {ErrInvalidMeld, "the cards are not consecutive (no wrap-around K-A-2; one wild fills one gap)"},
	failBothAces:     {ErrInvalidMeld, "the ace is low (A-2-3) or high (Q-K-A), not both, in this rule set"},
	failNoRoom:       {ErrInvalidMeld, "the sequence is full: there is no place left for the wild"},
	failWildsOnly:    {ErrInvalidMeld, "a meld may not consist of wild cards only"},
	failWildAs:       {ErrInvalidMeld, "the wild cannot stand for the card named by wild_as"},
	failNoSets:       {ErrInvalidMeld, "sets (of equal rank) are not melds in this rule set"},
	failSetRank:      {ErrInvalidMeld, "a card is not of the set's rank"},
	failSetSize:      {ErrInvalidMeld, "a set holds at most 8 natural cards and one wild"},
	failCopies:       {ErrInvalidMeld, "a set cannot hold a third copy of one card (two decks)"},
	failBadMeld:      {ErrInvalidMeld, "the meld to attach to is not a legal meld"},
	failTooManyWilds: {ErrTooManyWilds, "a meld holds at most one wild card (joker or 2)"},
	failWildLocked:   {ErrWildLocked, "the wild is imprisoned between natural cards: it moves only when the card it stands for is attached"},
}

// err returns the RuleError for f.
func (f fail) err() error {
	t := failText[f]
	return ruleErr(t.code, t.msg)
}
