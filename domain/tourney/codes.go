package tourney

// codes is the kind of every code an *Error of the package carries: what
// the service maps to its statuses and the API documents. A test checks
// that every Code constant of errors.go is here.
var codes = map[string]Kind{
	CodeInvalidSetup:   KindInvalid,
	CodeInvalidCommand: KindInvalid,
	CodeBadScore:       KindInvalid,
	CodeBadPairings:    KindInvalid,
	CodeReasonRequired: KindInvalid,
	CodeBadEvent:       KindInvalid,

	CodeBadTransition:    KindConflict,
	CodeStaleSheet:       KindConflict,
	CodeRoundOpen:        KindConflict,
	CodeRoundNotPlaying:  KindConflict,
	CodeTableIncomplete:  KindConflict,
	CodeNoMoreRounds:     KindConflict,
	CodeNotEnoughEntries: KindConflict,
	CodeAlreadyEntered:   KindConflict,
	CodeDuplicateNumber:  KindConflict,
	CodeAlreadyConfirmed: KindConflict,
	CodeNothingToConfirm: KindConflict,
	CodeTableComplete:    KindConflict,
	CodeTableDecided:     KindConflict,
	CodeUnconfirmedDeals: KindConflict,
	CodeLateEntryClosed:  KindConflict,
	CodeUnpairable:       KindConflict,
	CodeKnockoutTied:     KindConflict,
	CodeKnockoutLocked:   KindConflict,
	CodeWithdrawn:        KindConflict,
	CodeNotLatestRound:   KindConflict,
	CodeSeqGap:           KindConflict,
	CodeOverrideKnockout: KindConflict,
	CodeRoundHasScores:   KindConflict,
	CodeOnlineSheet:      KindConflict,
	CodePhaseNotFinal:    KindConflict,
	CodeGroupTooSmall:    KindConflict,
	CodeBadGroups:        KindInvalid,

	CodeForbidden:   KindForbidden,
	CodeRefereeOnly: KindForbidden,
	CodeNotAtTable:  KindForbidden,
	CodeOwnSide:     KindForbidden,
	CodeNotYours:    KindForbidden,

	CodeEntryNotFound: KindNotFound,
	CodeRoundNotFound: KindNotFound,
	CodeTableNotFound: KindNotFound,
	CodeDealNotFound:  KindNotFound,
	CodePhaseNotFound: KindNotFound,
	CodeGroupNotFound: KindNotFound,
}

// Codes is every error code of the package with its kind, for the service
// and the API's list of problem codes. The map is a copy.
func Codes() map[string]Kind {
	out := make(map[string]Kind, len(codes))
	for c, k := range codes {
		out[c] = k
	}
	return out
}
