package domain

import (
	"errors"
	"fmt"
)

// Code is a stable, machine-readable error code. Codes are part of the API
// contract: frontends switch on them. Never rename one.
type Code string

// Error codes. The api package maps each to an HTTP status; an error that is
// not a *Error is an internal error (500, logged, never echoed).
const (
	EInvalid         Code = "invalid_input"        // 400/422: bad fields, see Fields
	EUnauthenticated Code = "unauthenticated"      // 401: no or bad credentials/token
	EForbidden       Code = "forbidden"            // 403: authenticated but not allowed
	ENotFound        Code = "not_found"            // 404
	EConflict        Code = "conflict"             // 409: e.g. email already registered
	EVersionConflict Code = "version_conflict"     // 409: optimistic concurrency lost
	ETokenReused     Code = "refresh_token_reused" // 401: a rotated refresh token was replayed; the family is revoked
	ERateLimited     Code = "rate_limited"         // 429
	EUnavailable     Code = "unavailable"          // 503: the database is busy (lock wait ran out); retry shortly
	EInternal        Code = "internal"             // 500
)

// FieldError is one invalid input field.
type FieldError struct {
	Field   string // JSON name of the field, e.g. "email"
	Code    string // e.g. "required", "too_long", "invalid"
	Message string // human-readable
}

// Error is the one error type of the domain.
type Error struct {
	Code    Code
	Message string       // safe to show to the user
	Fields  []FieldError // for EInvalid: every invalid field, not just the first
	Err     error        // the cause, for logs only; never shown
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a *Error with code and a formatted user-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err: its *Error's Code, or EInternal.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// Validator collects field errors so that a request reports all of them.
type Validator struct{ fields []FieldError }

// Add records an invalid field.
func (v *Validator) Add(field, code, message string) {
	v.fields = append(v.fields, FieldError{Field: field, Code: code, Message: message})
}

// Check records an invalid field when ok is false.
func (v *Validator) Check(ok bool, field, code, message string) {
	if !ok {
		v.Add(field, code, message)
	}
}

// Err returns an EInvalid *Error listing every recorded field, or nil.
func (v *Validator) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "some fields are invalid", Fields: v.fields}
}
