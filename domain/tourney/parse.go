package tourney

import (
	"bytes"
	"encoding/json"
)

// commandParsers reads each command by name.
var commandParsers = map[string]func([]byte) (Command, error){
	OpenRegistration{}.CommandName():  parseAs[OpenRegistration],
	CloseRegistration{}.CommandName(): parseAs[CloseRegistration],
	Start{}.CommandName():             parseAs[Start],
	AddEntry{}.CommandName():          parseAs[AddEntry],
	UpdateEntry{}.CommandName():       parseAs[UpdateEntry],
	CheckIn{}.CommandName():           parseAs[CheckIn],
	Withdraw{}.CommandName():          parseAs[Withdraw],
	DrawRound{}.CommandName():         parseAs[DrawRound],
	OverridePairings{}.CommandName():  parseAs[OverridePairings],
	StartRound{}.CommandName():        parseAs[StartRound],
	EnterScore{}.CommandName():        parseAs[EnterScore],
	ConfirmScore{}.CommandName():      parseAs[ConfirmScore],
	CorrectScore{}.CommandName():      parseAs[CorrectScore],
	Ruling{}.CommandName():            parseAs[Ruling],
	Penalty{}.CommandName():           parseAs[Penalty],
	CloseRound{}.CommandName():        parseAs[CloseRound],
	ReopenRound{}.CommandName():       parseAs[ReopenRound],
	Finish{}.CommandName():            parseAs[Finish],
	PublishResults{}.CommandName():    parseAs[PublishResults],
	Cancel{}.CommandName():            parseAs[Cancel],
	SetForbidden{}.CommandName():      parseAs[SetForbidden],
}

// ParseCommand reads the command called name (CommandName) from its JSON
// (unknown fields refused; empty data is an empty object). A bad name or
// body is an invalid_command *Error.
func ParseCommand(name string, data []byte) (Command, error) {
	parse, ok := commandParsers[name]
	if !ok {
		return nil, errf(KindInvalid, CodeInvalidCommand, "no command %q", name)
	}
	return parse(data)
}

func parseAs[T Command](data []byte) (Command, error) {
	var c T
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, errf(KindInvalid, CodeInvalidCommand, "reading %s: %v", c.CommandName(), err)
	}
	if dec.More() {
		return nil, errf(KindInvalid, CodeInvalidCommand, "reading %s: data after the command", c.CommandName())
	}
	return c, nil
}
