package api

import (
	"time"

	"github.com/burraco/burraco/domain"
)

// User is an account.
type User struct {
	ID        int64     `json:"id" example:"42"`
	Email     string    `json:"email" example:"anna@example.com"`
	Name      string    `json:"name" example:"Anna Rossi"`
	SiteAdmin bool      `json:"site_admin" example:"false"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name User

func userOut(u domain.User) User {
	return User{ID: u.ID, Email: u.Email, Name: u.Name, SiteAdmin: u.SiteAdmin, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}
}

// RegisterRequest creates an account.
type RegisterRequest struct {
	Email string `json:"email" example:"anna@example.com"`
	// At least 10 characters.
	Password string `json:"password" example:"correct horse battery"`
	Name     string `json:"name" example:"Anna Rossi"`
} // @name RegisterRequest

// LoginRequest starts a session.
type LoginRequest struct {
	Email    string `json:"email" example:"anna@example.com"`
	Password string `json:"password" example:"correct horse battery"`
} // @name LoginRequest

// RefreshRequest carries a refresh token to rotate or revoke.
type RefreshRequest struct {
	RefreshToken string `json:"refresh_token" example:"q3Zk9VfX2bL0sT7yWcE4nR8uJ1hA6mD5oP9iG3eK2xY"`
} // @name RefreshRequest

// TokenResponse is a new session: a short-lived access token to send as
// "Authorization: Bearer <access_token>", and a refresh token that can be
// used once to get the next pair.
type TokenResponse struct {
	AccessToken string `json:"access_token" example:"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9..."`
	TokenType   string `json:"token_type" example:"Bearer"`
	// Lifetime of the access token in seconds.
	ExpiresIn int `json:"expires_in" example:"900"`
	// Single use: each refresh returns a new one, and presenting a used one revokes the session.
	RefreshToken     string    `json:"refresh_token" example:"q3Zk9VfX2bL0sT7yWcE4nR8uJ1hA6mD5oP9iG3eK2xY"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at" format:"date-time"`
	User             User      `json:"user"`
} // @name TokenResponse
